import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);

/** The build steps of `npm start`: everything before it runs `node dist/cli.js serve`. */
function startBuildCommand(): string {
  const start: string = JSON.parse(fs.readFileSync('package.json', 'utf8')).scripts.start;
  const [build] = start.split(/\s*&&\s*node dist\/cli\.js serve/);
  expect(build).not.toBe(start);
  return build!;
}

function builtTimes(): number[] {
  return ['dist/cli.js', 'dist/app.js', 'dist/web/index.html'].map((file) => fs.statSync(file).mtimeMs);
}

/**
 * `npm start` builds only what changed: run its build steps (which build the server and the web app if they are
 * out of date), then run them again and find nothing rewritten.
 */
it('npm start does not rebuild the server or the web app when nothing has changed', async () => {
  const build = startBuildCommand();
  const env = { ...process.env, PATH: `${process.cwd()}/node_modules/.bin:${process.env.PATH}` };
  await run('sh', ['-c', build], { env });
  const before = builtTimes();
  await run('sh', ['-c', build], { env });
  expect(builtTimes()).toEqual(before);
}, 300_000);
