import { execFile, spawn } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { storeBars } from '../../src/market/bar-store.service.js';
import { importBarsFile } from '../../src/market/import-bars.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { OFFLINE } from '../helpers/offline.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-import-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function csvFile(name: string, rows: string[], header = 'Date,Open,High,Low,Close,Adj Close,Volume'): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${[header, ...rows].join('\n')}\n`);
  return file;
}

function lines(): { stream: NodeJS.WriteStream; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({ write: (chunk, _encoding, done) => void (chunks.push(String(chunk)), done()) });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => chunks.join('') };
}

const GOOD = Array.from({ length: 1200 }, (_, i) => {
  const date = new Date(Date.UTC(2015, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  return `${date},10,12,9,11,5.5,${1000 + i}`;
});

describeEachDialect('import-bars', (db) => {
  const clock = new ManualClock();

  beforeEach(async () => {
    await db().handle.db.deleteFrom('bars').execute();
    await db().handle.db.deleteFrom('symbols').execute();
  });

  it('stores a good file adjusted, reports progress as plain lines off a terminal, and a re-import changes nothing', async () => {
    const file = csvFile('good.csv', GOOD);
    const progress = lines();
    const summary = await importBarsFile(db().handle.db, clock, { file, symbol: 'ACME', name: 'Acme Corp', progressStream: progress.stream });
    expect(summary).toEqual({ symbol: 'ACME', bars: 1200, changed: 1200, skippedNullRows: 0, adjusted: true, from: '2015-01-01', to: '2018-04-14' });
    expect(progress.text()).toBe('ACME: 1000/1200 bars\nACME: 1200/1200 bars\n');
    const first = await db().handle.db.selectFrom('bars').selectAll().orderBy('date').executeTakeFirstOrThrow();
    expect(first).toMatchObject({ symbol: 'ACME', date: '2015-01-01', open: 5, high: 6, low: 4.5, close: 5.5, volume: 1000 });

    const again = await importBarsFile(db().handle.db, clock, { file, symbol: 'ACME', progressStream: lines().stream });
    expect(again.changed).toBe(0);
    expect((await db().handle.db.selectFrom('symbols').selectAll().executeTakeFirstOrThrow()).name).toBe('Acme Corp');
  });

  it('replaces the bars of a symbol Yahoo filled instead of merging with them, and the symbol is an import from then on', async () => {
    const yahooDays = Array.from({ length: 5 }, (_, i) => ({ date: `2019-01-0${i + 1}`, open: 50, high: 51, low: 49, close: 50, volume: 7 }));
    await storeBars(db().handle.db, clock, { symbol: 'ACME', bars: yahooDays, source: 'yahoo' });
    const summary = await importBarsFile(db().handle.db, clock, { file: csvFile('acme.csv', GOOD.slice(0, 3)), symbol: 'ACME', progressStream: lines().stream });
    expect(summary).toMatchObject({ changed: 3, replaced: 'yahoo' });
    const stored = await db().handle.db.selectFrom('bars').select('date').where('symbol', '=', 'ACME').orderBy('date').execute();
    expect(stored.map((bar) => bar.date)).toEqual(['2015-01-01', '2015-01-02', '2015-01-03']);
    expect(await db().handle.db.selectFrom('symbols').select('bars_source').where('symbol', '=', 'ACME').executeTakeFirstOrThrow()).toEqual({ bars_source: 'import' });
  });

  it('stores nothing of a file with one bad row, even after the first batch', async () => {
    const rows = [...GOOD];
    rows[1100] = '2018-01-05,10,12,9,eleven,5.5,1000';
    const file = csvFile('bad.csv', rows);
    await expect(importBarsFile(db().handle.db, clock, { file, symbol: 'ACME', progressStream: lines().stream })).rejects.toThrow(
      `${file}:1102: close "eleven" is not a number`,
    );
    expect(await db().handle.db.selectFrom('bars').selectAll().execute()).toEqual([]);
    expect(await db().handle.db.selectFrom('symbols').selectAll().execute()).toEqual([]);
  });

  it('refuses a symbol that is not an upper-case ticker', async () => {
    const file = csvFile('ok.csv', GOOD.slice(0, 2));
    await expect(importBarsFile(db().handle.db, clock, { file, symbol: 'acme', progressStream: lines().stream })).rejects.toThrow('not a ticker');
  });
});

describe('tradelab import-bars (the command)', () => {
  const run = promisify(execFile);
  const tradelab = (dataDir: string, args: string[]) =>
    run(path.resolve('node_modules/.bin/tsx'), ['src/cli.ts', 'import-bars', ...args], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...OFFLINE } });

  it('imports a file and says what it stored; a broken file exits non-zero naming file and line, storing nothing', async () => {
    const dataDir = fs.mkdtempSync(path.join(dir, 'data-'));
    const good = csvFile('cli-good.csv', GOOD.slice(0, 3));
    const { stdout, stderr } = await tradelab(dataDir, [good, '--symbol', 'ACME', '--name', 'Acme Corp']);
    expect(stdout).toContain('ACME: 3 bars 2015-01-01 to 2015-01-03, 3 new or changed, adjusted by Adj Close');
    expect(stderr).toContain('ACME: 3/3 bars');

    const bad = csvFile('cli-bad.csv', ['2016-01-01,1,1,1,1,1,1', '2015-12-31,1,1,1,1,1,1']);
    const failure = await tradelab(dataDir, [bad, '--symbol', 'OTHER']).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain(`${bad}:3: date 2015-12-31 comes after 2016-01-01`);

    const handle = openDatabase({ url: null, sqlitePath: path.join(dataDir, 'tradelab.sqlite') });
    try {
      expect(await handle.db.selectFrom('symbols').select('symbol').execute()).toEqual([{ symbol: 'ACME' }]);
    } finally {
      await handle.close();
    }
  }, 30_000);
});

describe('tradelab serve on an empty store', () => {
  it('loads the demo S&P 500 series as SPX before listening, and says so in one log line', async () => {
    const dataDir = fs.mkdtempSync(path.join(dir, 'serve-'));
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--no-worker'], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', PORT: String(port), ...OFFLINE },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += String(chunk)));
    try {
      const deadline = Date.now() + 20_000;
      let symbols: unknown;
      while (Date.now() < deadline && symbols === undefined) {
        symbols = await fetch(`http://127.0.0.1:${port}/api/symbols?q=spx`).then((r) => r.json(), () => undefined);
        if (symbols === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(symbols).toEqual([{ symbol: 'SPX', name: 'S&P 500 Index', stored: true, source: 'demo', first_date: '2000-01-03', last_date: '2020-04-17' }]);
      const lines = output.split('\n').filter((line) => line.includes('loaded the demo series'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ symbol: 'SPX', bars: 5105, from: '2000-01-03', to: '2020-04-17' });
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    }
  }, 30_000);
});
