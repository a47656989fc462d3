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
