import type { BlockList } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Config } from '../config';
import { addressKey, parseTrustedProxies, resolveClientAddress } from '../platform/client-addresses';
import type { AppContext } from './context';

const trustedLists = new WeakMap<Config, BlockList | null>();

/** The client address of a request, as the login throttle counts it. */
export function clientAddressOf(c: AppContext): string {
  const { config } = c.var.deps;
  if (!trustedLists.has(config)) trustedLists.set(config, parseTrustedProxies(config.trustedProxies));
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    // Not served by @hono/node-server (app.request() in tests): no socket, one shared 'unknown' key.
  }
  return addressKey(resolveClientAddress(peer, c.req.header('x-forwarded-for'), trustedLists.get(config)!));
}
