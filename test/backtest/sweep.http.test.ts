import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { loadDemoDataIfEmpty } from '../../src/market/bar-store.service.js';
import { buildTestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { ManualClock } from '../helpers/clock.js';

const PERIOD = { symbol: 'SPX', strategy: 'sma_crossover', start_date: '2012-01-01', end_date: '2020-12-31', initial_capital: 100000 };
/** fast × slow, 3 × 3 = 9 grid cells; fast 10 and 15 against slow 10 break "fast below slow". */
const GRID = { slow_period: [30, 10, 20], fast_period: { min: 5, max: 15, step: 5 } };
const METRICS = ['total_return', 'annualized_return', 'sharpe_ratio', 'max_drawdown', 'win_rate', 'profit_factor', 'total_trades'] as const;

type Metrics = Record<(typeof METRICS)[number], number | null>;
type Cell = Metrics & { params: Record<string, number> };

function metricsOf(body: Record<string, unknown>): Metrics {
  return Object.fromEntries(METRICS.map((name) => [name, body[name]])) as Metrics;
}

describeEachDialect('parameter sweep HTTP', (db) => {
  let app: App;
  const clock = new ManualClock('2026-01-05T12:00:00.000Z');

  beforeAll(async () => {
    app = await buildTestApp(db().handle, { clock, env: { SWEEP_RATE_LIMIT: '1000' } });
    await loadDemoDataIfEmpty(db().handle.db, clock, app.log);
  });

  afterAll(async () => {
    await app.close();
  });

  const sweep = (body: Record<string, unknown>, on: App = app) => on.inject({ method: 'POST', url: '/api/backtest/sweep', payload: body });
  const backtest = async (body: Record<string, unknown>) => {
    const response = await app.inject({ method: 'POST', url: '/api/backtest', payload: body });
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const paramsOf = (params: Record<string, number>) => Object.entries(params).map(([name, value]) => ({ name, value }));

  it('answers every valid cell of a 2-D grid, row-major in the template’s parameter order, each equal to its single backtest', async () => {
    const response = await sweep({ ...PERIOD, grid: GRID, objective: 'sharpe_ratio' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['symbol', 'strategy', 'start_date', 'end_date', 'objective', 'min_trades', 'parameters', 'cells', 'skipped_cells', 'best']);
    expect(body).toMatchObject({ symbol: 'SPX', strategy: 'sma_crossover', start_date: '2012-01-03T00:00:00.000Z', objective: 'sharpe_ratio', min_trades: 10 });
    expect(body.parameters).toEqual(['fast_period', 'slow_period']);
    expect(body.cells.map((c: Cell) => [c.params.fast_period, c.params.slow_period])).toEqual([
      [5, 10], [5, 20], [5, 30], [10, 20], [10, 30], [15, 20], [15, 30],
    ]);
    expect(body.skipped_cells).toBe(2);
    for (const cell of body.cells as Cell[]) {
      const single = await backtest({ ...PERIOD, strategy_params: paramsOf(cell.params) });
      expect(metricsOf(cell), JSON.stringify(cell.params)).toEqual(metricsOf(single));
      expect(single.end_date).toBe(body.end_date);
    }
    const highest = Math.max(...body.cells.map((c: Cell) => c.sharpe_ratio ?? -Infinity));
    expect(body.best).toEqual(body.cells.find((c: Cell) => c.sharpe_ratio === highest));
  });

  it('keeps the parameters outside the grid at their defaults and ranks by any objective (max_drawdown: the shallowest)', async () => {
    // min_trades 0: every cell ranks, however few its trades (RSI reversion trades rarely).
    const body = (await sweep({ ...PERIOD, strategy: 'rsi_reversion', grid: { period: [7, 14, 21] }, objective: 'max_drawdown', min_trades: 0 })).json();
    expect(body.parameters).toEqual(['period']);
    expect(body.cells).toHaveLength(3);
    expect(body.cells[0].params).toEqual({ period: 7, oversold: 30, overbought: 70 });
    expect(body.best.max_drawdown).toBe(Math.max(...body.cells.map((c: Cell) => c.max_drawdown!)));
  });

  it('never answers a thin cell (fewer trades than min_trades, default 10) as best while another has enough, and marks each thin cell', async () => {
    const request = { ...PERIOD, grid: { fast_period: [2, 5, 10, 20, 40], slow_period: [50, 100, 200] }, objective: 'sharpe_ratio' };
    const open = (await sweep({ ...request, min_trades: 0 })).json();
    expect(open.min_trades).toBe(0);
    expect(open.cells.every((c: Cell & { thin: boolean }) => c.thin === false)).toBe(true);
    const top: Cell = open.best;
    const minTrades = top.total_trades! + 1;
    const response = await sweep({ ...request, min_trades: minTrades });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.min_trades).toBe(minTrades);
    for (const cell of body.cells as (Cell & { thin: boolean })[]) expect(cell.thin, JSON.stringify(cell.params)).toBe(cell.total_trades! < minTrades);
    expect(body.best.params).not.toEqual(top.params);
    expect(body.best.thin).toBe(false);
    const enough = (body.cells as (Cell & { thin: boolean })[]).filter((c) => !c.thin);
    expect(body.best.sharpe_ratio).toBe(Math.max(...enough.map((c) => c.sharpe_ratio ?? -Infinity)));
    // The cell that tops the objective is still answered, marked thin.
    expect(body.cells.find((c: Cell) => JSON.stringify(c.params) === JSON.stringify(top.params)).thin).toBe(true);
    // Left out, min_trades is 10.
    const byDefault = (await sweep(request)).json();
    expect(byDefault.min_trades).toBe(10);
    expect(byDefault.cells.map((c: Cell & { thin: boolean }) => c.thin)).toEqual(byDefault.cells.map((c: Cell) => c.total_trades! < 10));
  });

  it('gives byte-identical bodies for the same request, and for a range written as its list of values', async () => {
    const request = { ...PERIOD, grid: GRID, objective: 'total_return' };
    const first = await sweep(request);
    const second = await sweep(request);
    expect(first.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    const listed = await sweep({ ...request, grid: { ...GRID, fast_period: [15, 10, 5] } });
    expect(listed.body).toBe(first.body);
  });

  it('with a split date, ranks the in-sample cells and runs the best once on the held-out bars, as a single backtest would', async () => {
    const body = (await sweep({ ...PERIOD, grid: GRID, objective: 'total_return', validation: { split_date: '2018-01-01' } })).json();
    expect(Object.keys(body.validation)).toEqual(['split_date', 'in_sample', 'out_of_sample']);
    expect(body.validation.split_date).toBe('2018-01-02');
    expect(body.validation.in_sample).toEqual(body.best);
    const inSample = await backtest({ ...PERIOD, end_date: '2017-12-31', strategy_params: paramsOf(body.cells[3].params) });
    expect(metricsOf(body.cells[3])).toEqual(metricsOf(inSample));
    const outOfSample = await backtest({ ...PERIOD, start_date: '2018-01-01', strategy_params: paramsOf(body.best.params) });
    expect(body.validation.out_of_sample).toEqual(metricsOf(outOfSample));
  });

  it('with an in-sample fraction, holds out the bars from floor(n × f) on', async () => {
    const all = await backtest(PERIOD);
    const n = all.dates.length;
    const body = (await sweep({ ...PERIOD, grid: { fast_period: [5, 10] }, objective: 'sharpe_ratio', validation: { in_sample_fraction: 0.75 } })).json();
    const splitDate = all.dates[Math.floor(n * 0.75)];
    expect(body.validation.split_date).toBe(splitDate);
    const outOfSample = await backtest({ ...PERIOD, start_date: splitDate, strategy_params: paramsOf(body.best.params) });
    expect(body.validation.out_of_sample).toEqual(metricsOf(outOfSample));
  });

  it('walks forward: consecutive out-of-sample windows, each the best in-sample cell, the equity stitched from the initial capital', async () => {
    const all = await backtest(PERIOD);
    const n: number = all.dates.length;
    const windows = 4;
    const f = 0.75;
    const response = await sweep({ ...PERIOD, grid: GRID, objective: 'sharpe_ratio', validation: { walk_forward: { windows, in_sample_fraction: f } } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const wf = body.validation.walk_forward;
    expect(Object.keys(wf)).toEqual(['windows', 'dates', 'equity_curve', 'metrics']);
    // The lead's rule (docs/backtesting.md "Parameter sweeps"), computed here by hand.
    const oos = Math.floor(n / (windows + f / (1 - f)));
    const is = Math.floor((oos * f) / (1 - f));
    const dropped = n - (windows * oos + is);
    expect(wf.windows).toHaveLength(windows);
    wf.windows.forEach((w: { in_sample: Record<string, unknown>; out_of_sample: Record<string, unknown>; params: Record<string, number> }, k: number) => {
      const start = dropped + k * oos;
      expect(w.in_sample).toMatchObject({ start_date: all.dates[start], end_date: all.dates[start + is - 1] });
      expect(w.out_of_sample).toMatchObject({ start_date: all.dates[start + is], end_date: all.dates[start + is + oos - 1] });
      expect(Object.keys(w.params)).toEqual(['fast_period', 'slow_period']);
    });
    expect(wf.dates).toEqual(all.dates.slice(dropped + is));
    expect(wf.equity_curve).toHaveLength(wf.dates.length);
    expect(wf.equity_curve[0]).toBe(PERIOD.initial_capital);
    expect(wf.metrics.total_trades).toBe(wf.windows.reduce((sum: number, w: { out_of_sample: Metrics }) => sum + w.out_of_sample.total_trades!, 0));
    // Window 0 runs alone on its out-of-sample bars with the initial capital: a single backtest over those dates.
    const first = wf.windows[0];
    const single = await backtest({ ...PERIOD, start_date: first.out_of_sample.start_date, end_date: first.out_of_sample.end_date, strategy_params: paramsOf(first.params) });
    expect(metricsOf(first.out_of_sample)).toEqual(metricsOf(single));
  });

  it.each([
    ['a grid over 10,000 cells', { grid: { fast_period: { min: 2, max: 100, step: 1 }, slow_period: { min: 5, max: 400, step: 1 } } }, 'grid_too_large', '39204'],
    ['a value below the bounds', { grid: { fast_period: { min: 1, max: 5, step: 1 } } }, 'invalid_grid', 'grid.fast_period'],
    ['a fractional value of a whole-number parameter', { grid: { fast_period: [5, 7.5] } }, 'invalid_grid', 'grid.fast_period'],
    ['an unknown parameter', { grid: { fast_period: [5], lookback: [3] } }, 'invalid_grid', 'grid.lookback'],
    ['no parameter', { grid: {} }, 'invalid_grid', 'grid'],
    ['three parameters', { strategy: 'rsi_reversion', grid: { period: [7], oversold: [30], overbought: [70] } }, 'invalid_grid', 'grid'],
    ['no cell with fast below slow', { grid: { fast_period: [50], slow_period: [20, 30] } }, 'invalid_grid', 'grid'],
    ['a negative minimum of trades', { min_trades: -1 }, 'validation_failed', 'min_trades'],
    ['a fractional minimum of trades', { min_trades: 2.5 }, 'validation_failed', 'min_trades'],
    ['a split date before the bars', { validation: { split_date: '2000-01-01' } }, 'invalid_validation', 'validation'],
    ['a split date that is no date', { validation: { split_date: 'soon' } }, 'invalid_validation', 'soon'],
    ['an in-sample fraction leaving one bar', { validation: { in_sample_fraction: 0.0001 } }, 'invalid_validation', 'validation'],
    ['more walk-forward windows than bars allow', { start_date: '2020-01-01', end_date: '2020-02-15', validation: { walk_forward: { windows: 50, in_sample_fraction: 0.9 } } }, 'invalid_validation', 'validation'],
  ])('refuses %s with 400', async (_case, change, error, named) => {
    const response = await sweep({ ...PERIOD, grid: GRID, objective: 'sharpe_ratio', ...change });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toBe(error);
    expect(`${body.message.replace(/,/g, '')} ${JSON.stringify(body.details ?? [])}`).toContain(named);
  });

  it('refuses an unknown template with 404 and a period without bars with 422', async () => {
    const unknown = await sweep({ ...PERIOD, strategy: 'martingale', grid: GRID, objective: 'sharpe_ratio' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('unknown_strategy');
    const empty = await sweep({ ...PERIOD, start_date: '2021-01-01', end_date: '2021-06-30', grid: GRID, objective: 'sharpe_ratio' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error).toBe('no_bars');
  });

  it('answers 429 with Retry-After past its own per-client limit', async () => {
    const limited = await buildTestApp(db().handle, { clock: new ManualClock('2026-03-01T00:00:00.000Z'), env: { SWEEP_RATE_LIMIT: '2' } });
    try {
      const request = { ...PERIOD, grid: { fast_period: [5] }, objective: 'sharpe_ratio' };
      expect((await sweep(request, limited)).statusCode).toBe(200);
      const second = await sweep(request, limited);
      expect(second.statusCode).toBe(200);
      expect(second.headers['ratelimit-limit']).toBe('2');
      const refused = await sweep(request, limited);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: 'rate_limited' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // The legacy backtest keeps its own allowance.
      expect((await limited.inject({ method: 'POST', url: '/api/backtest', payload: PERIOD })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('answers 503 busy with Retry-After when the sweep threads’ queue is full, and closes with its threads', async () => {
    // One thread and room for one waiting chunk: of many large sweeps at once, one runs, one waits, the rest are refused.
    const small = await buildTestApp(db().handle, { clock: new ManualClock('2026-04-01T00:00:00.000Z'), sweepPool: { threads: 1, maxQueue: 1 } });
    const large = { ...PERIOD, start_date: '2000-01-01', grid: { fast_period: { min: 2, max: 40, step: 1 }, slow_period: { min: 50, max: 100, step: 1 } }, objective: 'sharpe_ratio' };
    const replies = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => sweep({ ...large, initial_capital: 1000 * i }, small)));
    const statuses = replies.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    const busy = replies.filter((r) => r.statusCode === 503);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    expect(busy[0]!.json()).toMatchObject({ error: 'busy' });
    expect(busy[0]!.headers['retry-after']).toBe('1');
    await small.close();
  });

  it('closes after the sweeps in hand have finished on the threads, then ends the threads', async () => {
    const closing = await buildTestApp(db().handle, { clock: new ManualClock('2026-05-01T00:00:00.000Z') });
    const inHand = sweep({ ...PERIOD, start_date: '2000-01-01', grid: { fast_period: { min: 2, max: 30, step: 1 }, slow_period: { min: 40, max: 80, step: 1 } }, objective: 'sharpe_ratio' }, closing);
    // Once the request's cells are on the threads, the app is asked to close.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await closing.close();
    const response = await inHand;
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.json().cells).toHaveLength(29 * 41);
  });
});
