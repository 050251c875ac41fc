import { describe, expect, it } from 'vitest';
import { blockedAddressReason, safeFetch, SafeFetchError } from './safe-fetch';

describe('blockedAddressReason', () => {
  it('refuses link-local, metadata, unspecified and multicast addresses, also inside IPv6 forms', () => {
    for (const a of [
      '169.254.169.254',
      '169.254.1.1',
      '0.0.0.0',
      '100.100.100.200',
      'fe80::1',
      'fd00:ec2::254',
      '::',
      '224.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::1',
    ]) {
      expect(blockedAddressReason(a), a).not.toBeNull();
    }
  });

  it('refuses loopback (also mapped and 6to4) unless allowed', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '2002:7f00:1::', '64:ff9b::7f00:1']) {
      expect(blockedAddressReason(a), a).toMatch(/loopback/);
      expect(blockedAddressReason(a, true), a).toBeNull();
    }
  });

  it('lets ordinary and private LAN addresses through', () => {
    for (const a of ['93.184.216.34', '10.0.0.5', '192.168.1.10', '2606:4700::1111'])
      expect(blockedAddressReason(a), a).toBeNull();
  });
});

describe('safeFetch URL checks (no connection is made)', () => {
  const reason = async (url: string) => {
    try {
      await safeFetch(url, { timeoutMs: 2000 });
      return 'fetched';
    } catch (err) {
      return err instanceof SafeFetchError ? err.reason : String(err);
    }
  };

  it('refuses other schemes and user:password URLs', async () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.test/x',
      'gopher://example.test/',
      'data:text/plain,x',
      'http://user:pass@example.test/x',
    ]) {
      expect(await reason(url), url).toBe('bad_url');
    }
  });

  it('refuses loopback spellings the URL parser folds into 127.0.0.1, and metadata addresses', async () => {
    for (const url of [
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://017700000001/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
    ]) {
      expect(await reason(url), url).toBe('blocked_address');
    }
  });
});
