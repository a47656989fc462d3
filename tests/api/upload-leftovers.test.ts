import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STALE_PART_MS } from '../../server/platform/files/local-storage';
import { startServerProcess } from '../support/server-process';

/**
 * An upload streams into `files/parts/<uuid>.part` and is renamed into place when whole; a process killed
 * mid-upload left its part forever. `npm start` on the embedded backend now removes the stale ones.
 */
describe('part files of uploads a killed process left, on the embedded files folder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'upload-leftovers-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('are removed when the server starts; a part still being written (recent) is kept', async () => {
    const parts = join(dataDir, 'files', 'parts');
    mkdirSync(parts, { recursive: true });
    writeFileSync(join(parts, 'stale.part'), 'half an upload');
    const long = (Date.now() - STALE_PART_MS - 60_000) / 1000;
    utimesSync(join(parts, 'stale.part'), long, long);
    writeFileSync(join(parts, 'live.part'), 'another instance is writing this');
    const server = await startServerProcess({ DATA_DIR: dataDir });
    try {
      expect(readdirSync(parts)).toEqual(['live.part']);
      expect(server.output()).toContain('Removed 1 part file(s)');
    } finally {
      await server.stop();
    }
    // A server process starting (tsx, the embedded database's migrations) beside a full CI run took more than
    // the default 30 s once: as every other test that starts one.
  }, 120_000);
});
