import type { BlockList } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Config } from '../config';
import {
  addressKey,
  isTrustedPeer,
  parseTrustedProxies,
  resolveClientAddress,
} from '../platform/client-addresses';
import type { AppContext } from './context';

const trustedLists = new WeakMap<Config, BlockList | null>();

function trustedListOf(config: Config): BlockList | null {
  if (!trustedLists.has(config)) trustedLists.set(config, parseTrustedProxies(config.trustedProxies));
  return trustedLists.get(config)!;
}

function peerOf(c: AppContext): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // Not served by @hono/node-server (app.request() in tests): no socket.
    return undefined;
  }
}

/** The client address of a request, as the login throttle counts it ('unknown' without a socket). */
export function clientAddressOf(c: AppContext): string {
  const trusted = trustedListOf(c.var.deps.config);
  return addressKey(resolveClientAddress(peerOf(c), c.req.header('x-forwarded-for'), trusted));
}

/**
 * The scheme the client used: `https` when a trusted proxy (TRUSTED_PROXIES) says so in
 * X-Forwarded-Proto — its own value, the last one, whatever the client wrote before it — else the
 * scheme this server was reached by. Anyone else's X-Forwarded-Proto is ignored.
 */
export function requestScheme(c: AppContext): 'http' | 'https' {
  const own = new URL(c.req.url).protocol === 'https:' ? 'https' : 'http';
  const forwarded = c.req.header('x-forwarded-proto');
  if (!forwarded || !isTrustedPeer(peerOf(c), trustedListOf(c.var.deps.config))) return own;
  return forwarded.split(',').pop()!.trim().toLowerCase() === 'https' ? 'https' : 'http';
}
