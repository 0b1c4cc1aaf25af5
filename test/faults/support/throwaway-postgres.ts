import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL cluster of the test's own, in a temporary directory, on a free port: the fault tests stop and
 * start it at will. The shared server on 5432 is never touched. initdb and the server refuse to run as root,
 * so as root they run as the `postgres` user, which is given the directory.
 */
export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  readonly port: number;
  /** Kills the server as a crash would (`pg_ctl stop -m immediate`): open connections are cut, nothing flushed politely. */
  crash(): void;
  start(): void;
  /** Stops the server and deletes the cluster. */
  destroy(): void;
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-pg-fault-'));
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  const asPostgres = asPostgresUser(dir);
  asPostgres(path.join(bin, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
  const start = () => asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-o', settings, '-l', path.join(dir, 'server.log'), '-w', 'start']);
  const crash = () => asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    crash,
    start,
    destroy() {
      try {
        crash();
      } catch {
        // Already stopped.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((version) => path.join(root, version, 'bin')).find((bin) => fs.existsSync(path.join(bin, 'initdb')));
  if (!found) throw new Error('the fault suite needs PostgreSQL server binaries (Debian: apt-get install postgresql)');
  return found;
}

/** Runs a PostgreSQL program as `postgres` when we are root (given `dir`), else as ourselves. */
function asPostgresUser(dir: string): (program: string, args: string[]) => void {
  const root = process.getuid?.() === 0;
  if (root) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  return (program, args) => {
    const [command, commandArgs] = root ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
    execFileSync(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
