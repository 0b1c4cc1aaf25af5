import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { loadDemoDataIfEmpty } from '../../src/market/bar-store.service.js';
import { signedInAccount } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { HttpClient } from '../helpers/http-client.js';

/**
 * `report: true` on POST /api/backtest and POST /api/backtest/run, over the demo SPX bars on both dialects: the
 * report agrees with the body's own figures, and the rest of the body is the body without the flag, byte for byte.
 */
const NOW = '2026-01-05T12:00:00.000Z';
const LEGACY = { symbol: 'SPX', strategy: 'sma_crossover', start_date: '2000-01-01', end_date: '2020-12-31', initial_capital: 100000 };
const PERIOD = { start_date: '2000-01-01', end_date: '2020-12-31', starting_capital: 100000 };

interface Report {
  monthly_returns: { year: number; month: number; return: number }[];
  yearly_returns: { year: number; return: number }[];
  worst_drawdowns: { start: string; trough: string; end: string | null; depth: number; days: number }[];
  rolling: { window_days: number; dates: string[]; sharpe: (number | null)[]; volatility: (number | null)[] };
  trade_returns: { bins: { from: number; to: number; count: number }[] };
  time_in_market: number;
  best_month: { return: number };
  worst_month: { return: number };
  longest_losing_streak: number;
}

const compound = (rs: { return: number }[]) => rs.reduce((g, r) => g * (1 + r.return), 1) - 1;

/** The report's figures against the body's own: compounding, the deepest drawdown, the rolling dates, the trade count. */
function expectConsistent(report: Report, body: { dates: string[]; total_return: number; max_drawdown: number; total_trades: number }) {
  expect(compound(report.monthly_returns)).toBeCloseTo(body.total_return, 6);
  expect(compound(report.yearly_returns)).toBeCloseTo(body.total_return, 6);
  expect(report.monthly_returns[0]).toMatchObject({ year: 2000, month: 1 });
  expect(report.yearly_returns.map((y) => y.year)).toEqual(Array.from({ length: 21 }, (_, i) => 2000 + i));
  expect(report.worst_drawdowns).toHaveLength(5);
  expect(report.worst_drawdowns[0]!.depth).toBeCloseTo(body.max_drawdown, 8);
  for (const d of report.worst_drawdowns) expect(d.start < d.trough && (d.end === null || d.trough < d.end)).toBe(true);
  expect(report.rolling.window_days).toBe(126);
  expect(report.rolling.dates).toEqual(body.dates.slice(126));
  expect(report.trade_returns.bins.reduce((n, b) => n + b.count, 0)).toBe(body.total_trades);
  expect(report.trade_returns.bins.length).toBeLessThanOrEqual(20);
  expect(report.time_in_market).toBeGreaterThan(0);
  expect(report.time_in_market).toBeLessThan(1);
  expect(report.best_month.return).toBe(Math.max(...report.monthly_returns.map((m) => m.return)));
  expect(report.worst_month.return).toBe(Math.min(...report.monthly_returns.map((m) => m.return)));
  expect(report.longest_losing_streak).toBeGreaterThan(0);
}

/** The body with its report left out, as the serializer writes it (the report is the last field). */
function withoutReport(body: string): string {
  const at = body.indexOf(',"report":');
  expect(at).toBeGreaterThan(0);
  expect(body.endsWith('}}') || body.endsWith(']}')).toBe(true);
  return `${body.slice(0, at)}}`;
}

describeEachDialect('backtest report HTTP', (database) => {
  let app: App;
  let client: HttpClient;
  let strategyId: number;
  const clock = new ManualClock(NOW);

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    await loadDemoDataIfEmpty(database().handle.db, clock, app.log);
    client = new HttpClient(app);
    await signedInAccount(client, database().handle.db);
    const created = await client.post('/api/strategies', {
      name: 'SMA 10/30',
      strategy_type: 'equity_long',
      entry_symbol_allowlist: 'SPX',
      entry_max_position_size: 60000,
      entry_rule: 'crosses_above(sma(close, 10), sma(close, 30))',
      exit_rule: 'crosses_below(sma(close, 10), sma(close, 30))',
    });
    expect(created.statusCode, created.body).toBe(201);
    strategyId = created.json().id;
  });

  afterAll(async () => {
    await app.close();
  });

  const legacy = (body: object) => app.inject({ method: 'POST', url: '/api/backtest', payload: body });

  it('adds the report to a legacy backtest, the rest of the body unchanged', async () => {
    const plain = await legacy(LEGACY);
    const reported = await legacy({ ...LEGACY, report: true });
    expect(reported.statusCode, reported.body).toBe(200);
    expect(plain.body).not.toContain('"report"');
    expect(withoutReport(reported.body)).toBe(plain.body);
    const body = reported.json();
    expectConsistent(body.report, body);
    // The cache keeps the two apart, both ways; `report: false` is the plain body.
    expect((await legacy(LEGACY)).body).toBe(plain.body);
    expect((await legacy({ ...LEGACY, report: true })).body).toBe(reported.body);
    expect((await legacy({ ...LEGACY, report: false })).body).toBe(plain.body);
  });

  it('adds the report to a library run, the rest of the body unchanged', async () => {
    const plain = await client.post('/api/backtest/run', { strategy_id: strategyId, ...PERIOD });
    const reported = await client.post('/api/backtest/run', { strategy_id: strategyId, ...PERIOD, report: true });
    expect(reported.statusCode, reported.body).toBe(200);
    expect(plain.body).not.toContain('"report"');
    expect(withoutReport(reported.body)).toBe(plain.body);
    const body = reported.json();
    expectConsistent(body.report, { ...body.stats, dates: body.dates });
    expect((await client.post('/api/backtest/run', { strategy_id: strategyId, ...PERIOD })).body).toBe(plain.body);
  });

  it('refuses a report flag that is not a boolean', async () => {
    const response = await legacy({ ...LEGACY, report: 'yes' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBeTruthy();
    const library = await client.post('/api/backtest/run', { strategy_id: strategyId, ...PERIOD, report: 1 });
    expect(library.statusCode).toBe(400);
  });
});
