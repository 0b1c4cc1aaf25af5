import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storeBars } from '../../src/market/bar-store.service.js';
import { fetchBarsInto } from '../../src/market/fetch-bars.js';
import { marketDataProviderFor, type MarketDataProvider } from '../../src/market/market-data-provider.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { testConfig } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { startFakeYahoo, YAHOO_NOT_FOUND, yahooChart, yahooDay } from './fake-yahoo.js';

type FakeYahoo = Awaited<ReturnType<typeof startFakeYahoo>>;

const epochOf = (date: string) => String(Date.parse(`${date}T00:00:00Z`) / 1000);
const DAYS = [yahooDay('2025-12-29', 250), yahooDay('2025-12-30', 251, 250.5), yahooDay('2025-12-31', 252), yahooDay('2026-01-02', 253)];

/** What the fake Yahoo answers per ticker: AAPL its chart, NOPE unknown (404), DOWN an outage (503). */
function answerByTicker(fake: FakeYahoo, days = DAYS, now = '2026-01-05T15:00:00Z'): void {
  fake.answer((request) => {
    const ticker = request.path.split('/').at(-1);
    if (ticker === 'NOPE') return { status: 404, body: YAHOO_NOT_FOUND };
    if (ticker === 'DOWN') return { status: 503 };
    return { status: 200, body: yahooChart(ticker ?? '', days.filter((day) => Number(request.query.period1) <= Number(epochOf(day.date))), now) };
  });
}

function lines(): { stream: NodeJS.WriteStream; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({ write: (chunk, _encoding, done) => void (chunks.push(String(chunk)), done()) });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => chunks.join('') };
}

describeEachDialect('fetch-bars: the store filled from the provider, symbol by symbol', (database) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-01-05T15:00:00.000Z');
  let fake: FakeYahoo;
  let provider: MarketDataProvider;

  beforeAll(async () => {
    fake = await startFakeYahoo();
    const quiet = pino({ level: 'silent' });
    provider = marketDataProviderFor(testConfig({ MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: fake.url }), { clock, logger: quiet })!;
  });
  afterAll(async () => fake.close());
  beforeEach(async () => {
    fake.seen.length = 0;
    await db().deleteFrom('bars').execute();
    await db().deleteFrom('symbols').execute();
  });

  it('stores each symbol’s bars adjusted, says what is stored; an unknown ticker, an outage and a demo symbol fail alone', async () => {
    await storeBars(db(), clock, { symbol: 'SPX', name: 'S&P 500 Index', bars: [{ date: '2020-04-17', open: 1, high: 1, low: 1, close: 1, volume: 1 }], source: 'demo' });
    answerByTicker(fake);
    const progress = lines();
    const outcomes = await fetchBarsInto(db(), clock, provider, { symbols: ['AAPL', 'NOPE', 'DOWN', 'SPX', 'msft'], progressStream: progress.stream });
    expect(outcomes).toEqual([
      { symbol: 'AAPL', ok: true, bars: 4, changed: 4, from: '2025-12-29', to: '2026-01-02', source: 'yahoo' },
      { symbol: 'NOPE', ok: false, error: 'unknown_symbol', message: expect.stringContaining('Yahoo Finance does not know it') },
      { symbol: 'DOWN', ok: false, error: 'provider_error', message: 'Yahoo Finance answered HTTP 503.' },
      { symbol: 'SPX', ok: false, error: 'other_source', message: expect.stringContaining('come from the demo data') },
      { symbol: 'msft', ok: false, error: 'invalid_symbol', message: expect.stringContaining('is not a ticker') },
    ]);
    expect(progress.text()).toBe('AAPL: 1/5 symbols\nNOPE: 2/5 symbols\nDOWN: 3/5 symbols\nSPX: 4/5 symbols\nmsft: 5/5 symbols\n');
    // All of Yahoo's history from 1990 was asked for; the demo SPX and the malformed ticker were never asked.
    expect(fake.seen.map((request) => request.path)).toEqual(['/v8/finance/chart/AAPL', '/v8/finance/chart/NOPE', '/v8/finance/chart/DOWN']);
    expect(fake.seen[0]!.query.period1).toBe(epochOf('1990-01-01'));
    // Adjusted by the adjusted close as the CSV import is: 251 × 250.5 / 251 on 2025-12-30.
    const adjusted = await db().selectFrom('bars').selectAll().where('symbol', '=', 'AAPL').where('date', '=', '2025-12-30').executeTakeFirstOrThrow();
    expect(adjusted.close).toBe(250.5);
    expect(adjusted.open).toBeCloseTo((250 * 250.5) / 251, 9);
    expect(await db().selectFrom('symbols').select(['symbol', 'bars_source']).orderBy('symbol').execute()).toEqual([
      { symbol: 'AAPL', bars_source: 'yahoo' },
      { symbol: 'SPX', bars_source: 'demo' },
    ]);
  });

  it('a provider that cannot be reached fails every symbol with provider_unreachable and stores nothing', async () => {
    const quiet = pino({ level: 'silent' });
    const closed = marketDataProviderFor(testConfig({ MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: 'http://127.0.0.1:1' }), { clock, logger: quiet })!;
    const outcomes = await fetchBarsInto(db(), clock, closed, { symbols: ['AAPL', 'MSFT'], progressStream: lines().stream });
    expect(outcomes.map((outcome) => (outcome.ok ? 'ok' : outcome.error))).toEqual(['provider_unreachable', 'provider_unreachable']);
    expect(await db().selectFrom('symbols').selectAll().execute()).toEqual([]);
  });

  it('again: asks only for the days after the last stored one; --from asks from that date', async () => {
    answerByTicker(fake);
    await fetchBarsInto(db(), clock, provider, { symbols: ['AAPL'], progressStream: lines().stream });
    clock.set('2026-01-06T22:00:00.000Z');
    answerByTicker(fake, [...DAYS, yahooDay('2026-01-05', 254), yahooDay('2026-01-06', 255)], '2026-01-06T22:00:00Z');
    const [again] = await fetchBarsInto(db(), clock, provider, { symbols: ['AAPL'], progressStream: lines().stream });
    expect(again).toEqual({ symbol: 'AAPL', ok: true, bars: 6, changed: 2, from: '2025-12-29', to: '2026-01-06', source: 'yahoo' });
    expect(fake.seen[1]!.query.period1).toBe(epochOf('2026-01-03'));
    const [from] = await fetchBarsInto(db(), clock, provider, { symbols: ['AAPL'], from: '2025-12-31', progressStream: lines().stream });
    expect(from).toMatchObject({ ok: true, bars: 6, changed: 0 });
    expect(fake.seen[2]!.query.period1).toBe(epochOf('2025-12-31'));
    clock.set('2026-01-05T15:00:00.000Z');
  });
});

describe('tradelab fetch-bars (the command)', () => {
  const run = promisify(execFile);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradelab-fetch-'));
  const tradelab = (dataDir: string, args: string[], env: Record<string, string>) =>
    run(path.resolve('node_modules/.bin/tsx'), ['src/cli.ts', 'fetch-bars', ...args], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env } });
  let fake: FakeYahoo;

  beforeAll(async () => {
    fake = await startFakeYahoo();
  });
  afterAll(async () => {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fetches from the fake Yahoo (YAHOO_BASE_URL), one line per symbol; a failed symbol is said, the others stored, exit 1', async () => {
    const now = new Date().toISOString();
    answerByTicker(fake, DAYS, now);
    const dataDir = fs.mkdtempSync(path.join(dir, 'data-'));
    const failure = await tradelab(dataDir, ['AAPL', 'NOPE', 'MSFT'], { MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: fake.url }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 1 });
    const { stdout, stderr } = failure as { stdout: string; stderr: string };
    expect(stdout).toBe(
      'AAPL: 4 bars stored, 2025-12-29 to 2026-01-02, from Yahoo Finance (4 new or changed)\nMSFT: 4 bars stored, 2025-12-29 to 2026-01-02, from Yahoo Finance (4 new or changed)\n',
    );
    expect(stderr).toContain('AAPL: 1/3 symbols');
    expect(stderr).toContain('NOPE: not fetched (unknown_symbol): We have no prices for NOPE, and Yahoo Finance does not know it.');
    expect(stderr).toContain('1 of 3 symbols not fetched.');

    const handle = openDatabase({ url: null, sqlitePath: path.join(dataDir, 'tradelab.sqlite') });
    try {
      expect(await handle.db.selectFrom('symbols').select(['symbol', 'bars_source']).orderBy('symbol').execute()).toEqual([
        { symbol: 'AAPL', bars_source: 'yahoo' },
        { symbol: 'MSFT', bars_source: 'yahoo' },
      ]);
    } finally {
      await handle.close();
    }

    // Everything known and up to date: exit 0.
    const { stdout: again } = await tradelab(dataDir, ['AAPL'], { MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: fake.url });
    expect(again).toBe('AAPL: 4 bars stored, 2025-12-29 to 2026-01-02, from Yahoo Finance (already up to date)\n');
  }, 30_000);

  it('refuses with MARKET_DATA_PROVIDER=none, saying how to fetch or import instead, and calls nobody; a bad --from likewise', async () => {
    fake.seen.length = 0;
    const dataDir = fs.mkdtempSync(path.join(dir, 'none-'));
    const offline = await tradelab(dataDir, ['AAPL'], { MARKET_DATA_PROVIDER: 'none', YAHOO_BASE_URL: fake.url }).catch((error: unknown) => error);
    expect(offline).toMatchObject({ code: 1, stdout: '' });
    expect((offline as { stderr: string }).stderr).toContain('fetch-bars needs a market-data provider, and MARKET_DATA_PROVIDER is none (offline)');
    const badDate = await tradelab(dataDir, ['AAPL', '--from', '2021-02-30'], { MARKET_DATA_PROVIDER: 'yahoo', YAHOO_BASE_URL: fake.url }).catch((error: unknown) => error);
    expect(badDate).toMatchObject({ code: 1 });
    expect((badDate as { stderr: string }).stderr).toContain('--from "2021-02-30" is not a date');
    expect(fake.seen).toEqual([]);
  }, 30_000);
});
