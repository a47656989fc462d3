import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { localUrl } from '../config';
import type { AppEnv } from './context';

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Port 0 picks a free port; the URL reports the one actually bound. */
export function listen(app: Hono<AppEnv>, options: { host: string; port: number }): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch, hostname: options.host, port: options.port },
      (info: AddressInfo) => {
        resolve({
          url: localUrl(options.host, info.port),
          port: info.port,
          close: () =>
            new Promise<void>((done, fail) => {
              server.close((error) => (error ? fail(error) : done()));
              // Idle keep-alive sockets would otherwise hold close() open until they time out.
              if ('closeIdleConnections' in server) server.closeIdleConnections();
            }),
        });
      },
    );
    server.once('error', reject);
  });
}
