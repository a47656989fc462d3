import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FileTooLargeError,
  MAX_FILE_BYTES,
  storedFilePath,
  writeContent,
} from '../../server/platform/files/store';

describe('file store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stores content under its sha256, once for identical bytes', () => {
    const content = Buffer.from('relatório clínico');
    const first = writeContent(dir, content);
    const second = writeContent(dir, Buffer.from(content));
    expect(first.sha256).toBe(createHash('sha256').update(content).digest('hex'));
    expect(second).toEqual(first);
    expect(readFileSync(storedFilePath(dir, first.storageKey))).toEqual(content);
  });

  it('refuses content over 40 MB', () => {
    expect(() => writeContent(dir, new Uint8Array(MAX_FILE_BYTES + 1))).toThrow(FileTooLargeError);
  });

  it('refuses any key it did not mint', () => {
    for (const key of [
      '../etc/passwd',
      'aa/../../x',
      '/etc/passwd',
      `ab/${'a'.repeat(63)}`,
      `AB/${'A'.repeat(64)}`,
    ]) {
      expect(() => storedFilePath(dir, key)).toThrow();
    }
  });
});
