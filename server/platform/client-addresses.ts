/**
 * Client addresses for the login throttle: reading TRUSTED_PROXIES, a socket's or a forwarded hop's
 * address, and the key an address is counted under. No request or configuration types here, so the
 * configuration can check TRUSTED_PROXIES at start-up without importing the HTTP layer.
 */
import { BlockList, isIP } from 'node:net';

/** `TRUSTED_PROXIES`: addresses and CIDR ranges, comma-separated. Throws on an entry it cannot read. */
export function parseTrustedProxies(value: string | undefined): BlockList | null {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const prefix = bits === undefined ? undefined : Number(bits);
    const maxBits = family === 6 ? 128 : 32;
    if (
      family === 0 ||
      rest.length > 0 ||
      (prefix !== undefined && (!/^\d+$/.test(bits!) || prefix > maxBits))
    )
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  return list;
}

/** A bare IP address from a socket or a forwarded hop (`[v6]:port`, `v4:port`, `::ffff:v4`), or null. */
export function normalizeAddress(raw: string | undefined): string | null {
  if (!raw) return null;
  let text = raw.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  text = text.replace(/%.*$/, ''); // zone id
  if (text.startsWith('::ffff:') && isIP(text.slice(7)) === 4) text = text.slice(7);
  return isIP(text) ? text : null;
}

const isTrusted = (list: BlockList, address: string) =>
  list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** Whether a socket's peer is one of the trusted proxies (never, without TRUSTED_PROXIES). */
export function isTrustedPeer(peer: string | undefined, trusted: BlockList | null): boolean {
  const socket = normalizeAddress(peer);
  return socket !== null && trusted !== null && isTrusted(trusted, socket);
}

/**
 * The client is the socket's peer, unless that peer is a trusted proxy: then X-Forwarded-For is
 * read from the right (each proxy appends the address it saw), skipping trusted proxies, and the
 * first other address is the client. Whatever lies left of it was written by the client and is
 * ignored. Without TRUSTED_PROXIES the header is never read, so a client cannot pick its address.
 */
export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: BlockList | null,
): string {
  const socket = normalizeAddress(peer);
  if (!socket) return 'unknown';
  if (!trusted || !forwardedFor || !isTrusted(trusted, socket)) return socket;
  let client = socket;
  const hops = forwardedFor.split(',');
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = normalizeAddress(hops[index]);
    // Unreadable: not written by a proxy we trust; the last trusted hop is the best we know.
    if (!hop) break;
    client = hop;
    if (!isTrusted(trusted, hop)) break;
  }
  return client;
}

/**
 * The key the per-address limit counts under: an IPv4 address, or an IPv6 address's /64 (one
 * subscriber usually holds a whole /64, so counting single IPv6 addresses would be no limit at all).
 */
export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail] = address.split('::');
  const front = head ? head.split(':') : [];
  const back = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
