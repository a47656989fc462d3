import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFolderInUseError, lockAddressOf, lockDataFolder } from '../../server/db/data-folder-lock';

const folders: string[] = [];
const newFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'lock-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A process that binds `address`, says so, and is then killed with -9: what a crashed holder leaves. */
async function bindThenKill(address: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(address)}, () => console.log('bound'))`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

// Decision 0125: the abstract socket (Linux) and the socket file (elsewhere; exercised here too).
describe.each([
  ['abstract socket', (folder: string) => lockAddressOf(folder, 'linux')],
  ['socket file', (folder: string) => lockAddressOf(folder, 'darwin')],
])('the data folder lock (%s)', (_kind, addressOf) => {
  it('holds the folder against a second taker, naming this process, until released', async () => {
    const folder = newFolder();
    const lock = await lockDataFolder(folder, addressOf(folder));
    const refused = await lockDataFolder(folder, addressOf(folder)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataFolderInUseError);
    expect((refused as DataFolderInUseError).holderPid).toBe(process.pid);
    await lock.release();
    const again = await lockDataFolder(folder, addressOf(folder));
    await again.release();
  });

  it('is free again once its holder was killed with -9', async () => {
    const folder = newFolder();
    await bindThenKill(addressOf(folder));
    const lock = await lockDataFolder(folder, addressOf(folder));
    await lock.release();
  });
});

it('on Linux leaves only the pid file on disk while held, nothing after; the name follows the folder, not its path', async () => {
  const folder = newFolder();
  expect(lockAddressOf(`${folder}/.`, 'linux')).toBe(lockAddressOf(folder, 'linux'));
  const lock = await lockDataFolder(folder, lockAddressOf(folder, 'linux'));
  expect(readdirSync(folder)).toEqual(['process.pid']);
  await lock.release();
  expect(readdirSync(folder)).toEqual([]);
});
