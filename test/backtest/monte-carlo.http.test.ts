import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { loadDemoDataIfEmpty } from '../../src/market/bar-store.service.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';

/**
 * POST /api/backtest/monte-carlo over the demo SPX bars on both dialects: the answer's shape and agreement with the
 * backtest, the same bytes for the same request (from another app too: not the cache's doing), the refusals, and
 * 503 `busy` when the worker threads' queue is full.
 */
const NOW = '2026-01-05T12:00:00.000Z';
const URL = '/api/backtest/monte-carlo';
const SPX = { symbol: 'SPX', strategy: 'sma_crossover', start_date: '2000-01-01', end_date: '2020-12-31', initial_capital: 100000 };

describeEachDialect('Monte Carlo HTTP', (database) => {
  let app: App;
  const clock = new ManualClock(NOW);
  const post = (body: object, to: App = app) => to.inject({ method: 'POST', url: URL, payload: body });

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock, env: { SWEEP_RATE_LIMIT: '1000' } });
    await loadDemoDataIfEmpty(database().handle.db, clock, app.log);
  });

  afterAll(async () => {
    await app.close();
  });

  it('resamples the backtest’s closed trades 1,000 times with seed 1 by bootstrap by default', async () => {
    const backtest = (await app.inject({ method: 'POST', url: '/api/backtest', payload: SPX })).json();
    const response = await post(SPX);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ runs: 1000, seed: 1, method: 'bootstrap', trades: backtest.total_trades });
    const ordered = (p: Record<string, number>) => p.p5! <= p.p25! && p.p25! <= p.p50! && p.p50! <= p.p75! && p.p75! <= p.p95!;
    expect(ordered(body.final_equity) && ordered(body.max_drawdown)).toBe(true);
    expect(body.max_drawdown.p95).toBeLessThanOrEqual(0);
    expect(body.probability_of_loss).toBeGreaterThanOrEqual(0);
    expect(body.probability_of_loss).toBeLessThanOrEqual(1);
    // The actual path: the trades' returns compounded in order from the capital.
    const sells = backtest.trades.filter((t: { type: string }) => t.type === 'SELL');
    const compounded = sells.reduce((e: number, t: { return: number }) => e * (1 + t.return), SPX.initial_capital);
    expect(body.bands.trade_numbers[0]).toBe(0);
    expect(body.bands.trade_numbers.at(-1)).toBe(sells.length);
    expect(body.bands.actual[0]).toBe(SPX.initial_capital);
    expect(body.bands.actual.at(-1)).toBeCloseTo(compounded, -1); // the trades list rounded returns
    for (const band of ['p5', 'p25', 'p50', 'p75', 'p95', 'actual']) expect(body.bands[band]).toHaveLength(body.bands.trade_numbers.length);
  });

  it('gives the same bytes for the same request, from another app as well, and other bytes for another seed', async () => {
    const request = { ...SPX, runs: 2000, seed: 42, method: 'shuffle' };
    const first = await post(request);
    expect(first.statusCode).toBe(200);
    expect((await post(request)).body).toBe(first.body);
    const other = await buildTestApp(database().handle, { clock, env: { SWEEP_RATE_LIMIT: '1000' } });
    try {
      expect((await post(request, other)).body).toBe(first.body);
    } finally {
      await other.close();
    }
    expect((await post({ ...request, seed: 43 })).body).not.toBe(first.body);
    // Shuffled, every path holds the same trades: the same final equity.
    const { final_equity } = first.json();
    expect(final_equity.p95 - final_equity.p5).toBeLessThan(0.05);
  });

  it.each([
    ['runs 0', { runs: 0 }],
    ['runs over 10,000', { runs: 10001 }],
    ['a fractional seed', { seed: 1.5 }],
    ['an unknown method', { method: 'jackknife' }],
    ['a report flag', { report: true }],
  ])('refuses %s with 400', async (_name, extra) => {
    const response = await post({ ...SPX, ...extra });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });

  it('answers 404 for an unknown template and 422 no_trades when the backtest closes no trade', async () => {
    expect((await post({ ...SPX, strategy: 'nope' })).statusCode).toBe(404);
    const none = await post({ ...SPX, start_date: '2020-01-01', end_date: '2020-01-31' });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ error: 'no_trades' });
    expect(none.json().message).toContain('nothing to resample');
  });

  it('answers 503 busy with Retry-After when the worker threads’ queue is full', async () => {
    // One thread and room for one waiting task: of many large runs at once, one runs, one waits, the rest are refused.
    const small = await buildTestApp(database().handle, { clock, env: { SWEEP_RATE_LIMIT: '1000' }, sweepPool: { threads: 1, maxQueue: 1 } });
    try {
      const replies = await Promise.all([1, 2, 3, 4, 5, 6].map((seed) => post({ ...SPX, runs: 10000, seed }, small)));
      const statuses = replies.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
      const busy = replies.filter((r) => r.statusCode === 503);
      expect(busy.length).toBeGreaterThanOrEqual(1);
      expect(busy[0]!.json()).toMatchObject({ error: 'busy' });
      expect(busy[0]!.headers['retry-after']).toBe('1');
    } finally {
      await small.close();
    }
  });
});
