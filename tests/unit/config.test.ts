import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';

describe('PUBLIC_URL', () => {
  it('defaults to the URL npm start prints', () => {
    expect(readConfig({}).publicUrl).toBe('http://127.0.0.1:8080');
    expect(readConfig({ HOST: '0.0.0.0', PORT: '9090' }).publicUrl).toBe('http://127.0.0.1:9090');
    expect(readConfig({ HOST: '::1' }).publicUrl).toBe('http://[::1]:8080');
  });

  it('keeps a path prefix and drops trailing slashes', () => {
    expect(readConfig({ PUBLIC_URL: 'https://Admin.Example.com/' }).publicUrl).toBe(
      'https://admin.example.com',
    );
    expect(readConfig({ PUBLIC_URL: 'https://example.com/panel//' }).publicUrl).toBe(
      'https://example.com/panel',
    );
  });

  it.each(['example.com', 'ftp://example.com', 'https://example.com/?a=1', 'https://u:p@example.com'])(
    'refuses %s at start-up',
    (value) => {
      expect(() => readConfig({ PUBLIC_URL: value })).toThrow(/PUBLIC_URL/);
    },
  );
});

describe('FILES_BACKEND', () => {
  const server = 'postgres://postgres@db.internal/admin';

  it('keeps files in the local folder embedded, in PostgreSQL on a server, unless told otherwise', () => {
    expect(readConfig({}).filesBackend).toBe('local');
    expect(readConfig({ DATABASE_URL: server }).filesBackend).toBe('postgres');
    expect(readConfig({ DATABASE_URL: server, FILES_BACKEND: 'local' }).filesBackend).toBe('local');
    expect(readConfig({ DATABASE_URL: server, FILES_BACKEND: 'postgres' }).filesBackend).toBe('postgres');
    expect(readConfig({ FILES_BACKEND: '' }).filesBackend).toBe('local');
  });

  it.each(['s3', 'Postgres', 'disk'])('refuses %s at start-up, naming the choices', (value) => {
    expect(() => readConfig({ DATABASE_URL: server, FILES_BACKEND: value })).toThrow(
      /FILES_BACKEND must be "local" or "postgres"/,
    );
  });

  it('refuses postgres without a PostgreSQL server', () => {
    expect(() => readConfig({ FILES_BACKEND: 'postgres' })).toThrow(
      /FILES_BACKEND=postgres needs DATABASE_URL/,
    );
  });
});
