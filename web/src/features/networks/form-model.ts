import { NETWORK_NAME_PATTERN, type CreateNetworkBody, type NetworkDriver } from '@berth/contract';

export interface NetworkForm {
  name: string;
  networkDriver: NetworkDriver;
  network_devices: string;
  internal: boolean;
  attachable: boolean;
  ipv6_enabled: boolean;
  ipv4subnet: string;
  ipv4gateway: string;
  ipv4range: string;
  ipv6subnet: string;
  ipv6gateway: string;
  ipv6range: string;
}

export const initialNetworkForm: NetworkForm = {
  name: '',
  networkDriver: 'bridge',
  network_devices: '',
  internal: false,
  attachable: true,
  ipv6_enabled: false,
  ipv4subnet: '',
  ipv4gateway: '',
  ipv4range: '',
  ipv6subnet: '',
  ipv6gateway: '',
  ipv6range: '',
};

/** Which fields the form shows for a driver (spec: Create Network). */
export function visibleFields(driver: NetworkDriver) {
  return {
    networkInterface: driver === 'macvlan',
    ipv4range: driver !== 'macvlan',
    ipv6: driver === 'bridge' || driver === 'macvlan',
    ipv6range: driver === 'bridge',
  };
}

export type FormErrors = Partial<Record<keyof NetworkForm, string>>;

/** The form's own rules: name and driver required, the interface required for macvlan. Addresses are checked by the server. */
export function formErrors(form: NetworkForm): FormErrors {
  const errors: FormErrors = {};
  const name = form.name.trim();
  if (!name) errors.name = 'Name is required.';
  else if (!NETWORK_NAME_PATTERN.test(name))
    errors.name = 'Use letters, digits, _ . - (starting with a letter or digit).';
  if (!form.networkDriver) errors.networkDriver = 'Driver is required.';
  if (visibleFields(form.networkDriver).networkInterface && !form.network_devices.trim())
    errors.network_devices = 'Network interface is required.';
  return errors;
}

/** The create payload with only what the form shows for this driver (hidden fields are never sent). */
export function toPayload(form: NetworkForm): CreateNetworkBody {
  const show = visibleFields(form.networkDriver);
  const v6 = show.ipv6 && form.ipv6_enabled;
  const text = (v: string, shown = true) => (shown && v.trim() ? v.trim() : null);
  return {
    name: form.name.trim(),
    networkDriver: form.networkDriver,
    internal: form.internal,
    attachable: form.attachable,
    network_devices: text(form.network_devices, show.networkInterface),
    ipv4subnet: text(form.ipv4subnet),
    ipv4gateway: text(form.ipv4gateway),
    ipv4range: text(form.ipv4range, show.ipv4range),
    ipv6_enabled: v6,
    ipv6subnet: text(form.ipv6subnet, v6),
    ipv6gateway: text(form.ipv6gateway, v6),
    ipv6range: text(form.ipv6range, v6 && show.ipv6range),
  };
}
