import { describe, expect, it } from 'vitest';
import { formErrors, initialNetworkForm, toPayload, visibleFields } from './form-model';

describe('network form rules', () => {
  it('shows the interface only for macvlan, hides ranges for macvlan and IPv6 for ipvlan', () => {
    expect(visibleFields('bridge')).toEqual({ networkInterface: false, ipv4range: true, ipv6: true, ipv6range: true });
    expect(visibleFields('macvlan')).toEqual({
      networkInterface: true,
      ipv4range: false,
      ipv6: true,
      ipv6range: false,
    });
    expect(visibleFields('ipvlan')).toEqual({
      networkInterface: false,
      ipv4range: true,
      ipv6: false,
      ipv6range: false,
    });
  });

  it('needs a valid name and, for macvlan, an interface', () => {
    expect(formErrors(initialNetworkForm)).toHaveProperty('name');
    expect(formErrors({ ...initialNetworkForm, name: 'bad name' }).name).toMatch(/letters/);
    expect(formErrors({ ...initialNetworkForm, name: 'net1' })).toEqual({});
    expect(formErrors({ ...initialNetworkForm, name: 'net1', networkDriver: 'macvlan' })).toHaveProperty(
      'network_devices',
    );
    expect(
      formErrors({ ...initialNetworkForm, name: 'net1', networkDriver: 'macvlan', network_devices: 'eth0' }),
    ).toEqual({});
  });

  it('sends only the fields shown for the driver', () => {
    const filled = {
      ...initialNetworkForm,
      name: ' n ',
      network_devices: 'eth0',
      ipv4subnet: '10.1.0.0/24',
      ipv4range: '10.1.0.0/25',
      ipv6subnet: 'fd00::/64',
      ipv6range: 'fd00::/80',
    };
    expect(toPayload(filled)).toMatchObject({
      name: 'n',
      network_devices: null,
      ipv4range: '10.1.0.0/25',
      ipv6_enabled: false,
      ipv6subnet: null,
    });
    expect(toPayload({ ...filled, networkDriver: 'macvlan', ipv6_enabled: true })).toMatchObject({
      network_devices: 'eth0',
      ipv4range: null,
      ipv6_enabled: true,
      ipv6subnet: 'fd00::/64',
      ipv6range: null,
    });
    expect(toPayload({ ...filled, networkDriver: 'ipvlan', ipv6_enabled: true })).toMatchObject({
      ipv6_enabled: false,
      ipv6subnet: null,
    });
  });
});
