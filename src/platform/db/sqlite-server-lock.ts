import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/** A second `serve` on a data directory that a live server already holds. */
export class DataDirInUse extends Error {
  constructor(dataDir: string, holderPid: string | undefined) {
    super(
      `Another tradelab server${holderPid ? ` (pid ${holderPid})` : ''} is already serving ${dataDir}. ` +
        'Two servers on one SQLite file would queue on its single write lock, each stalling the other; ' +
        'stop that server first, give this one its own DATA_DIR, or run several servers on one PostgreSQL (DATABASE_URL).',
    );
    this.name = 'DataDirInUse';
  }
}

export interface ServerLock {
  release(): void;
}

/**
 * Claims `dataDir` for this process's HTTP server, or throws {@link DataDirInUse}. The claim is an
 * exclusive SQLite lock on `serve.lock`, which the operating system drops when the process ends however it
 * ends, so a server killed with -9 never blocks the next one; `serve.pid` names the holder for the message.
 * Workers and one-off commands do not claim it: they share the database file with the server.
 */
export function claimSqliteServerLock(dataDir: string): ServerLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const pidFile = path.join(dataDir, 'serve.pid');
  const lock = new SQLite(path.join(dataDir, 'serve.lock'), { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the file's exclusive lock; in this locking mode it is kept until the connection closes.
    lock.pragma(`user_version = ${process.pid}`);
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new DataDirInUse(dataDir, readPid(pidFile));
  }
  fs.writeFileSync(pidFile, `${process.pid}\n`);
  return {
    release() {
      if (readPid(pidFile) === String(process.pid)) fs.rmSync(pidFile, { force: true });
      lock.close();
    },
  };
}

function readPid(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
