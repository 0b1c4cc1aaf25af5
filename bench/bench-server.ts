import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { OFFLINE } from '../test/helpers/offline.js';

export interface BenchServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** Its DATA_DIR (the SQLite file lives there). */
  readonly dataDir: string;
}

/**
 * Starts `serve --no-worker` in its own process on a free loopback port with a fresh DATA_DIR, and
 * resolves once `/readyz` answers. `serverArgs` is the node command line of the CLI (built or via tsx).
 */
export async function startBenchServer(serverArgs: readonly string[], env: Record<string, string>, cwd?: string): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-bench-'));
  const child = spawn(process.execPath, [...serverArgs, 'serve', '--no-worker'], {
    ...(cwd ? { cwd } : {}),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...OFFLINE, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i += 1) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { url, process: child, dataDir };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not become ready within 20 s');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
