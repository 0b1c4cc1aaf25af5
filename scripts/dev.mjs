#!/usr/bin/env node
// `npm run dev`: the API (restarted on change by tsx watch) on :3000 and Vite's dev server on :5173, which
// reloads the page on every change under src/web and passes API paths through to :3000. The API runs with
// PUBLIC_ORIGIN = the dev server's origin, so the browser's Origin header and the WebAuthn origin match it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apiPort = Number(process.env.PORT ?? 3000);
const devPort = Number(process.env.DEV_PORT ?? 5173);
const devOrigin = `http://localhost:${devPort}`;
const api = `http://127.0.0.1:${apiPort}`;

const server = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', 'src/cli.ts', 'serve'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PORT: String(apiPort), PUBLIC_ORIGIN: devOrigin, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
});

// Regular expressions, not prefixes: a prefix `/api` would also take the module `/api.ts`.
const serverPaths = ['^/api([/?]|$)', '^/docs([/?]|$)', '^/openapi\\.json', '^/healthz', '^/readyz'];
const proxied = Object.fromEntries(serverPaths.map((pattern) => [pattern, { target: api }]));
const vite = await createServer({
  configFile: path.join(root, 'vite.config.ts'),
  server: { port: devPort, strictPort: true, host: 'localhost', proxy: proxied },
});
await vite.listen();
console.log(`\n  tradelab dev: open ${devOrigin} (API on ${api}, PUBLIC_ORIGIN=${devOrigin})\n`);

const stop = async () => {
  server.kill('SIGTERM');
  await vite.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
server.once('exit', (code) => {
  if (code !== null && code !== 0) console.error(`the API server exited with ${code}`);
});
