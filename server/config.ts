import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminEmail: string;
  adminPassword: string;
  demoPassword: string;
  smtpUrl: string | undefined;
  development: boolean;
}

export const DEFAULT_ADMIN_EMAIL = 'admin@demo.pt';
export const DEFAULT_ADMIN_PASSWORD = 'admin-demo-2026';
export const DEFAULT_DEMO_PASSWORD = 'demo-pass-2026';

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    adminEmail: env.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD ?? DEFAULT_ADMIN_PASSWORD,
    demoPassword: env.DEMO_PASSWORD ?? DEFAULT_DEMO_PASSWORD,
    smtpUrl: env.SMTP_URL || undefined,
    development: env.NODE_ENV === 'development',
  };
}
