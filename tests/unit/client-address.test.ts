import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';
import {
  addressKey,
  normalizeAddress,
  parseTrustedProxies,
  resolveClientAddress,
} from '../../server/platform/client-addresses';

const proxies = parseTrustedProxies('10.0.0.0/8, 192.0.2.7, fd00::/8');

describe('client address for the login throttle', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(resolveClientAddress('203.0.113.5', '198.51.100.1', null)).toBe('203.0.113.5');
    expect(resolveClientAddress('::ffff:127.0.0.1', undefined, null)).toBe('127.0.0.1');
    expect(resolveClientAddress(undefined, '198.51.100.1', null)).toBe('unknown');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(resolveClientAddress('203.0.113.5', '198.51.100.1', proxies)).toBe('203.0.113.5');
  });

  it('reads X-Forwarded-For from the right, skipping trusted proxies, ignoring what the client wrote', () => {
    expect(resolveClientAddress('10.1.2.3', '198.51.100.1', proxies)).toBe('198.51.100.1');
    expect(resolveClientAddress('10.1.2.3', '1.1.1.1, 198.51.100.1, 192.0.2.7', proxies)).toBe(
      '198.51.100.1',
    );
    expect(resolveClientAddress('10.1.2.3', '[2001:db8::1]:443', proxies)).toBe('2001:db8::1');
    expect(resolveClientAddress('10.1.2.3', '198.51.100.1:5555', proxies)).toBe('198.51.100.1');
    // A hop no proxy wrote: stop at the last trusted one rather than believe it.
    expect(resolveClientAddress('10.1.2.3', 'not-an-ip', proxies)).toBe('10.1.2.3');
    expect(resolveClientAddress('10.1.2.3', 'junk, 10.9.9.9', proxies)).toBe('10.9.9.9');
  });

  it('counts an IPv6 client by its /64', () => {
    expect(addressKey('198.51.100.1')).toBe('198.51.100.1');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(normalizeAddress('FE80::1%eth0')).toBe('fe80::1');
  });

  it.each(['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/1', 'fd00::/129'])(
    'refuses TRUSTED_PROXIES=%s at start-up',
    (value) => {
      expect(() => readConfig({ TRUSTED_PROXIES: value })).toThrow(/TRUSTED_PROXIES/);
    },
  );
});
