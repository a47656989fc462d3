import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';

/**
 * One process per embedded data folder (issue 28, docs/decisions/0125). Two processes on one PGlite
 * folder each write pages the other never sees: both served, both numbered the same SEPA file, and the
 * folder could end up unreadable. The folder is held by a listening Unix domain socket, which the
 * kernel closes when the process dies however it dies (kill -9 included), so no lock is ever left stuck.
 *
 * On Linux the socket is in the abstract namespace, named from the folder's device and inode (the same
 * folder under any path or symlink): binding it is atomic and nothing is left on disk. Elsewhere it is
 * a socket file in the folder; one whose process died still exists but refuses connections, and is
 * replaced.
 */

export class DataFolderInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number | null,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by process ${holderPid ?? '(pid unknown)'}: one process per embedded database; stop it or choose another DATA_DIR`,
    );
    this.name = 'DataFolderInUseError';
  }
}

export interface DataFolderLock {
  release(): Promise<void>;
}

/** Says who holds the folder; read only to name the holder, never to decide (the socket decides). */
const pidFileOf = (dataDir: string) => join(dataDir, 'process.pid');

/** Where the lock lives for this folder: an abstract socket name on Linux, a socket file elsewhere. */
export function lockAddressOf(dataDir: string, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'linux') return join(dataDir, 'process.lock');
  const { dev, ino } = statSync(dataDir);
  return `\0admin-panel-v2-data-folder:${dev}:${ino}`;
}

const listenOn = (server: Server, address: string) =>
  new Promise<NodeJS.ErrnoException | null>((resolve) => {
    server.once('error', resolve);
    server.listen(address, () => {
      server.off('error', resolve);
      resolve(null);
    });
  });

/** Whether a process still accepts connections on a socket file (a dead one's refuses them). */
const answers = (address: string) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection(address);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

function readHolderPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(pidFileOf(dataDir), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes the folder for this process, or throws DataFolderInUseError naming the holder. The caller
 * opens the database only after this, and releases the lock after closing it.
 */
export async function lockDataFolder(
  dataDir: string,
  address: string = lockAddressOf(dataDir),
): Promise<DataFolderLock> {
  const isFile = !address.startsWith('\0');
  for (let attempt = 0; ; attempt++) {
    // Connections carry nothing: the socket exists only to be bound.
    const server = createServer((socket) => socket.destroy());
    const failure = await listenOn(server, address);
    if (failure === null) {
      // The lock must not keep a finished process alive; it lasts as long as the process anyway.
      server.unref();
      writeFileSync(pidFileOf(dataDir), `${process.pid}\n`);
      return {
        release: () =>
          new Promise<void>((resolve) => {
            rmSync(pidFileOf(dataDir), { force: true });
            server.close(() => resolve());
          }),
      };
    }
    if (failure.code !== 'EADDRINUSE') throw failure;
    // A socket file left by a process that died: replaced once. A second EADDRINUSE means another
    // process replaced it first, and holds the folder now.
    if (isFile && attempt === 0 && !(await answers(address))) {
      rmSync(address, { force: true });
      continue;
    }
    throw new DataFolderInUseError(dataDir, readHolderPid(dataDir));
  }
}
