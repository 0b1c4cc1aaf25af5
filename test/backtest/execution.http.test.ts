import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { loadDemoDataIfEmpty, storeBars } from '../../src/market/bar-store.service.js';
import { relativeMetrics } from '../../src/engine/benchmark/index.js';
import { sharpeRatio } from '../../src/engine/metrics.js';
import { roundFraction, roundFractionOrNull } from '../../src/engine/index.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { bars, COSTS, HAND, SPX, storeHandMadeBars } from './execution-kit.js';

/**
 * Issue 25 over HTTP: `costs`, `sizing`, `exits` and `benchmark` on POST /api/backtest, /api/compare-strategies and
 * /api/backtest/sweep: the refusals, a costed run against a hand computation, the benchmark block (a second symbol
 * with a missing date, unknown, too short, the symbol itself), zero costs as today, the response cache keyed on the
 * settings, a comparison and a sweep with costs, OpenAPI. The library run: library-execution.http.test.ts.
 */
describeEachDialect('execution settings over HTTP', (database) => {
  let app: App;
  const clock = new ManualClock('2026-01-05T12:00:00.000Z');

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock, env: { SWEEP_RATE_LIMIT: '1000', LEGACY_BACKTEST_RATE_LIMIT: '1000' } });
    await loadDemoDataIfEmpty(database().handle.db, clock, app.log);
    await storeHandMadeBars(database().handle.db, clock);
  });

  afterAll(async () => {
    await app.close();
  });

  const post = (url: string, payload: Record<string, unknown>) => app.inject({ method: 'POST', url, payload });
  const backtest = (payload: Record<string, unknown>) => post('/api/backtest', payload);
  const symbolCount = async () => (await database().handle.db.selectFrom('symbols').select('symbol').execute()).length;

  describe('refusals', () => {
    it.each([
      ['a negative commission', { costs: { commission_pct: -0.001 } }, 400, 'validation_failed', 'body.costs.commission_pct: must be >= 0'],
      ['a negative minimum', { costs: { commission_min: -1 } }, 400, 'validation_failed', 'body.costs.commission_min: must be >= 0'],
      ['a negative per-share commission', { costs: { commission_per_share: -0.01 } }, 400, 'validation_failed', 'body.costs.commission_per_share: must be >= 0'],
      ['slippage above 1,000 bp', { costs: { slippage_bps: 1001 } }, 400, 'validation_failed', 'body.costs.slippage_bps: must be <= 1000'],
      ['a commission given as text', { costs: { commission_pct: '0.1' } }, 400, 'validation_failed', 'body.costs.commission_pct'],
      ['an unknown cost', { costs: { spread_bps: 5 } }, 400, 'validation_failed', 'spread_bps'],
      ['a percent of equity above 1', { sizing: { mode: 'percent_of_equity', value: 50 } }, 400, 'invalid_sizing', '50 is above 1: percent_of_equity is a fraction of the equity'],
      ['a percent of equity of 0', { sizing: { mode: 'percent_of_equity', value: 0 } }, 400, 'invalid_sizing', '0 is not above 0'],
      ['a percent of equity without a value', { sizing: { mode: 'percent_of_equity' } }, 400, 'invalid_sizing', 'percent_of_equity needs a value'],
      ['a fixed amount of 0', { sizing: { mode: 'fixed_amount', value: 0 } }, 400, 'invalid_sizing', '0 is not a budget'],
      ['fractional fixed shares', { sizing: { mode: 'fixed_shares', value: 2.5 } }, 400, 'invalid_sizing', '2.5 is not a whole number of shares'],
      ['zero fixed shares', { sizing: { mode: 'fixed_shares', value: 0 } }, 400, 'invalid_sizing', '0 is not a whole number of shares'],
      ['all_in with a value', { sizing: { mode: 'all_in', value: 1 } }, 400, 'invalid_sizing', 'all_in takes no value'],
      ['an unknown sizing mode', { sizing: { mode: 'kelly', value: 0.5 } }, 400, 'validation_failed', 'body.sizing.mode'],
      ['a sizing with another key', { sizing: { mode: 'all_in', leverage: 2 } }, 400, 'validation_failed', 'leverage'],
      ['a positive stop loss', { exits: { stop_loss_pct: 0.1 } }, 400, 'validation_failed', 'body.exits.stop_loss_pct: must be < 0'],
      ['a stop loss of −100 %', { exits: { stop_loss_pct: -1 } }, 400, 'validation_failed', 'body.exits.stop_loss_pct: must be > -1'],
      ['a take profit of 0', { exits: { take_profit_pct: 0 } }, 400, 'validation_failed', 'body.exits.take_profit_pct: must be > 0'],
      ['a trailing stop of 100 %', { exits: { trailing_stop_pct: 1 } }, 400, 'validation_failed', 'body.exits.trailing_stop_pct: must be < 1'],
      ['a trailing stop of 0', { exits: { trailing_stop_pct: 0 } }, 400, 'validation_failed', 'body.exits.trailing_stop_pct: must be > 0'],
      ['an unknown exit', { exits: { time_stop_days: 5 } }, 400, 'validation_failed', 'time_stop_days'],
      ['a benchmark that is not a ticker', { benchmark: 'spy;' }, 400, 'invalid_symbol', 'Benchmark "spy;" is not a ticker'],
      ['an unknown benchmark', { benchmark: 'NOPE' }, 404, 'unknown_symbol', 'We have no prices for the benchmark NOPE'],
      ['a benchmark that starts after the backtest', { benchmark: 'HNC' }, 422, 'benchmark_too_short', 'The benchmark HNC has bars only from 2024-01-03'],
    ])('refuses %s, storing nothing', async (_case, change, status, error, said) => {
      const before = await symbolCount();
      for (const [url, body] of [
        ['/api/backtest', HAND],
        ['/api/compare-strategies', { ...HAND, strategy: undefined, strategies: ['buy_and_hold'] }],
        ['/api/backtest/sweep', { ...HAND, strategy: 'sma_crossover', grid: { fast_period: [2] }, objective: 'total_return' }],
      ] as const) {
        const response = await post(url, { ...body, ...change });
        expect(response.statusCode, `${url} ${response.body}`).toBe(status);
        const refusal = response.json();
        expect(refusal.error).toBe(error);
        expect(`${refusal.message} ${JSON.stringify(refusal.details ?? [])}`).toContain(said);
      }
      expect(await symbolCount()).toBe(before);
    });

    it('names the benchmark field in the refusals that concern it', async () => {
      expect((await backtest({ ...HAND, benchmark: 'NOPE' })).json()).toEqual({
        error: 'unknown_symbol',
        message: 'We have no prices for the benchmark NOPE. GET /api/symbols lists the symbols we have.',
        details: [{ field: 'body.benchmark', message: 'has no stored prices and no provider knows it' }],
      });
      expect((await backtest({ ...HAND, benchmark: 'HNC' })).json()).toMatchObject({ error: 'benchmark_too_short', details: [{ field: 'body.benchmark', message: 'has no bar on or before 2024-01-02' }] });
    });
  });

  it('charges commission and slippage as computed by hand, and echoes the settings it used', async () => {
    const response = await backtest({ ...HAND, costs: COSTS });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    // BUY at 01-03: min(high 102, open 100 × 1.002) = 100.2. All in: q × 100.2 + max(1, 0.01 q + 0.001 × q × 100.2)
    // = 100.3102 q ≤ 10,000 → q = 99; value 9,919.80, commission 0.99 + 9.9198 = 10.9098; cash 69.2902.
    // SELL at the end, 01-05: max(low 103, close 105 × 0.998) = 104.79; value 10,374.21, commission 0.99 +
    // 10.37421 = 11.36421; cash 69.2902 + 10,374.21 − 11.36421 = 10,432.13599.
    // pnl (104.79 − 100.2) × 99 − 10.9098 − 11.36421 = 432.13599; return 432.13599 / (9,919.80 + 10.9098).
    expect(body.trades).toEqual([
      { date: '2024-01-03T00:00:00.000Z', type: 'BUY', price: 100.2, shares: 99, value: 9919.8, pnl: null, return: null, duration: null, commission: 10.91 },
      {
        date: '2024-01-05T00:00:00.000Z', type: 'SELL', price: 104.79, shares: 99, value: 10374.21, pnl: 432.14,
        return: roundFraction(432.13599 / 9930.7098), duration: 2, commission: 11.36, exit_reason: 'end_of_period',
      },
    ]);
    // Equity: 10,000; 69.2902 + 99 × 101; 69.2902 + 99 × 104; the cash after the sale.
    expect(body.equity_curve).toEqual([10000, 10068.29, 10365.29, 10432.14]);
    expect(body.final_capital).toBe(10432.14);
    // Commission 10.9098 + 11.36421 = 22.27401; slippage (100.2 − 100) × 99 + (105 − 104.79) × 99 = 19.8 + 20.79.
    expect(body.costs_paid).toEqual({ commission: 22.27, slippage: 40.59 });
    expect(body.costs).toEqual({ commission_per_share: 0.01, commission_pct: 0.001, commission_min: 1, slippage_bps: 20, commission_per_contract: 0 });
    expect(body.sizing).toEqual({ mode: 'all_in' });
    expect(body.exits).toEqual({ stop_loss_pct: null, take_profit_pct: null, trailing_stop_pct: null });
    expect(Object.keys(body).slice(-8)).toEqual(['costs', 'sizing', 'exits', 'costs_paid', 'benchmark', 'alpha', 'beta', 'information_ratio']);
  });

  it('answers two requests that differ only in costs each with its own body, from the cache too', async () => {
    const cheap = await backtest({ ...SPX, strategy: 'sma_crossover', costs: { commission_pct: 0.001 } });
    const dear = await backtest({ ...SPX, strategy: 'sma_crossover', costs: { commission_pct: 0.002 } });
    expect(dear.body).not.toBe(cheap.body);
    expect(dear.json().costs_paid.commission).toBeGreaterThan(cheap.json().costs_paid.commission);
    expect((await backtest({ ...SPX, strategy: 'sma_crossover', costs: { commission_pct: 0.001 } })).body).toBe(cheap.body);
    // The same costs written in another order are the same run.
    const reordered = await backtest({ ...SPX, strategy: 'sma_crossover', costs: { slippage_bps: 0, commission_pct: 0.001 } });
    expect(reordered.body).toBe(cheap.body);
    // Naming nothing is today's answer; naming zero costs adds the echo: not one cached body for both.
    const plain = await backtest({ ...SPX, strategy: 'sma_crossover' });
    const zero = await backtest({ ...SPX, strategy: 'sma_crossover', costs: {} });
    expect(plain.json()).not.toHaveProperty('costs');
    expect(zero.json()).toHaveProperty('costs');
    // A fresh process (no cache) gives the same bytes.
    const fresh = await buildTestApp(database().handle, { clock });
    try {
      expect((await fresh.inject({ method: 'POST', url: '/api/backtest', payload: { ...SPX, strategy: 'sma_crossover', costs: { commission_pct: 0.001 } } })).body).toBe(cheap.body);
    } finally {
      await fresh.close();
    }
  });

  it('compares with costs: each strategy its costs_paid, alpha, beta and information ratio, one benchmark block', async () => {
    const request = { ...SPX, strategies: ['buy_and_hold', 'sma_crossover'], costs: COSTS, benchmark: 'SPX' };
    const response = await post('/api/compare-strategies', request);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['symbol', 'start_date', 'end_date', 'initial_capital', 'data_feed', 'dates', 'strategies', 'costs', 'sizing', 'exits', 'benchmark']);
    expect(body.benchmark.equity_curve).toHaveLength(body.dates.length);
    for (const entry of body.strategies) {
      expect(Object.keys(entry).slice(-4)).toEqual(['costs_paid', 'alpha', 'beta', 'information_ratio']);
      const single = (await backtest({ ...SPX, strategy: entry.id, costs: COSTS })).json();
      expect(entry.equity_curve).toEqual(single.equity_curve);
      expect(entry.costs_paid).toEqual(single.costs_paid);
      expect(entry.costs_paid.commission).toBeGreaterThan(0);
      expect([entry.alpha, entry.beta, entry.information_ratio]).toEqual([single.alpha, single.beta, single.information_ratio]);
      expect(entry.total_return).toBe(single.total_return);
    }
    expect(body.benchmark).toEqual((await backtest({ ...SPX, strategy: 'buy_and_hold', costs: COSTS })).json().benchmark);
  });

  it('sweeps with costs: every cell is its costed backtest, the settings echoed with the benchmark’s metrics', async () => {
    const request = { ...SPX, strategy: 'sma_crossover', grid: { fast_period: [5, 10], slow_period: [30] }, objective: 'total_return', costs: COSTS, sizing: { mode: 'percent_of_equity', value: 0.5 } };
    const response = await post('/api/backtest/sweep', request);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).slice(-4)).toEqual(['costs', 'sizing', 'exits', 'benchmark']);
    expect(body.sizing).toEqual({ mode: 'percent_of_equity', value: 0.5 });
    expect(Object.keys(body.benchmark)).toEqual(['symbol', 'total_return', 'annualized_return', 'max_drawdown', 'sharpe_ratio']);
    const free = (await post('/api/backtest/sweep', { ...request, costs: undefined, sizing: undefined })).json();
    for (const [i, cell] of body.cells.entries()) {
      const single = (await backtest({ ...SPX, strategy: 'sma_crossover', costs: COSTS, sizing: request.sizing, strategy_params: Object.entries(cell.params).map(([name, value]) => ({ name, value })) })).json();
      expect([cell.total_return, cell.sharpe_ratio, cell.max_drawdown, cell.total_trades]).toEqual([single.total_return, single.sharpe_ratio, single.max_drawdown, single.total_trades]);
      expect(cell.total_return).not.toBe(free.cells[i].total_return);
      expect(body.benchmark).toEqual({ ...single.benchmark, equity_curve: undefined });
    }
  });

  it('refuses a walk-forward whose out-of-sample run leaves no capital for the next window (422, not a 500)', async () => {
    // 3,000 with a $1,500 minimum an order: one SPX share (about 1,150) and the two commissions take more than the
    // capital, so a window's out-of-sample run can end at or below 0 and the next window has nothing to start with.
    const response = await post('/api/backtest/sweep', {
      ...SPX, initial_capital: 3000, strategy: 'sma_crossover', grid: { fast_period: [5, 10], slow_period: [20] }, objective: 'total_return',
      costs: { commission_min: 1500 }, validation: { walk_forward: { windows: 4, in_sample_fraction: 0.5 } },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({
      error: 'capital_exhausted',
      message: expect.stringMatching(/^Walk-forward window \d of 4 has no capital to trade: the out-of-sample run of window \d ended at -?\$[\d,.]+/),
      details: [{ field: 'body.validation.walk_forward' }],
    });
  });

  it('says why no signal could be filled under costs, and how many could not when some were', async () => {
    // One share at 01-03's open of 100 costs 100 + max(5, 0) = 105 with its commission: more than the 100 capital.
    const none = (await backtest({ ...HAND, initial_capital: 100, costs: { commission_min: 5 } })).json();
    expect(none.trades).toEqual([]);
    expect(none.unfilled_signals).toEqual({
      count: 1,
      first_fill_date: '2024-01-03',
      share_price: 100,
      message: 'The strategy signalled once but no signal could be filled: one share of HND cost $105.00 with slippage and commission at the first fill, more than the $100.00 capital.',
    });
    // A $1,500 budget buys SPX while it trades below 1,500 (to 2012), not after: trades, and the later entries unfilled.
    const some = (await backtest({ ...SPX, strategy: 'sma_crossover', sizing: { mode: 'fixed_amount', value: 1500 } })).json();
    expect(some.trades.length).toBeGreaterThan(0);
    expect(some.unfilled_signals).toEqual({ count: expect.any(Number), message: expect.stringMatching(/^\d+ entry signals could not be filled: the cash or the sizing's budget was less than one share and its commission\.$/) });
    expect(some.unfilled_signals.count).toBeGreaterThan(0);
    // Without settings named, a run with trades has no such field (the body as before).
    expect((await backtest({ ...SPX, strategy: 'sma_crossover' })).json()).not.toHaveProperty('unfilled_signals');
  });

  it('values a second symbol as the benchmark on the backtest’s dates, carrying its last close over a date it lacks', async () => {
    const body = (await backtest({ ...HAND, benchmark: 'HNB' })).json();
    // 10,000 × close / 50 on 01-02, 01-03, 01-04 (no bar: 01-03's 55 carries), 01-05; 12-29 comes before the backtest.
    const equity = [10000, 11000, 11000, 12000];
    expect(body.benchmark).toEqual({
      symbol: 'HNB',
      total_return: 0.2,
      annualized_return: roundFraction(Math.pow(1.2, 365.25 / 3) - 1),
      max_drawdown: 0,
      sharpe_ratio: roundFractionOrNull(sharpeRatio(Float64Array.from(equity))),
      equity_curve: equity,
    });
    // No costs named: all in at 01-03's open of 100, 100 shares, no cash left: 10,000, 10,100, 10,400, 10,500.
    expect(body.equity_curve).toEqual([10000, 10100, 10400, 10500]);
    const relative = relativeMetrics(Float64Array.from([10000, 10100, 10400, 10500]), Float64Array.from(equity));
    expect(body).toMatchObject({ alpha: roundFractionOrNull(relative.alpha), beta: roundFractionOrNull(relative.beta), information_ratio: roundFractionOrNull(relative.information_ratio) });
    expect(body.beta).not.toBeNull();
    expect(body.costs_paid).toEqual({ commission: 0, slippage: 0 });
  });

  it('carries a benchmark’s last close from more than two weeks before the backtest (a monthly series), as any other date it lacks', async () => {
    // HNM closes once a month: its bar before the backtest's first date (01-02) is 12-01's, a month earlier. It has
    // bars before that date, so it is not too short: 12-01's 40 carries through 01-05 (01-31 comes after the backtest).
    await storeBars(database().handle.db, clock, { symbol: 'HNM', bars: bars([['2023-11-01', 30, 30, 30, 30], ['2023-12-01', 40, 40, 40, 40], ['2024-01-31', 45, 45, 45, 45]]) });
    const response = await backtest({ ...HAND, benchmark: 'HNM' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().benchmark).toMatchObject({ symbol: 'HNM', total_return: 0, equity_curve: [10000, 10000, 10000, 10000] });
  });

  it('benchmarks the symbol against itself when naming any setting: beta 1, alpha 0, no information ratio', async () => {
    // With no costs, 100 shares at 01-03's open of 100 (01-02's close) hold exactly what the benchmark holds.
    const body = (await backtest({ ...HAND, costs: {} })).json();
    expect(body.benchmark.symbol).toBe('HND');
    expect(body.benchmark.equity_curve).toEqual(body.equity_curve);
    expect(body).toMatchObject({ alpha: 0, beta: 1, information_ratio: null });
    // Naming the symbol itself is the same answer.
    expect((await backtest({ ...HAND, benchmark: 'HND', costs: {} })).body).toBe((await backtest({ ...HAND, costs: {} })).body);
  });

  it('keeps today’s trades and curves with zero costs, all_in and no exits, and adds only the new fields', async () => {
    const plain = (await backtest({ ...SPX, strategy: 'sma_crossover' })).json();
    const named = (await backtest({ ...SPX, strategy: 'sma_crossover', costs: {}, sizing: { mode: 'all_in' }, exits: {} })).json();
    for (const key of Object.keys(plain)) {
      if (key === 'trades') continue;
      expect(named[key], key).toEqual(plain[key]);
    }
    expect(named.trades.map(({ commission, exit_reason, ...trade }: Record<string, unknown>) => trade)).toEqual(plain.trades);
    expect(named.trades.every((t: { commission: number }) => t.commission === 0)).toBe(true);
    expect(named.trades.filter((t: { type: string }) => t.type === 'SELL').every((t: { exit_reason: string }) => ['signal', 'end_of_period'].includes(t.exit_reason))).toBe(true);
  });

  it('describes every new field in OpenAPI', async () => {
    const spec = (await app.inject({ url: '/openapi.json' })).json();
    for (const path of ['/api/backtest', '/api/compare-strategies', '/api/backtest/sweep', '/api/backtest/run']) {
      const request = spec.paths[path].post.requestBody.content['application/json'].schema;
      expect(Object.keys(request.properties), path).toEqual(expect.arrayContaining(['costs', 'sizing', 'exits', 'benchmark']));
      expect(Object.keys(request.properties.costs.properties)).toEqual(['commission_per_share', 'commission_pct', 'commission_min', 'slippage_bps', 'commission_per_contract']);
      const result = spec.paths[path].post.responses['200'].content['application/json'].schema;
      expect(Object.keys(result.properties), path).toEqual(expect.arrayContaining(['costs', 'sizing', 'exits', 'benchmark']));
    }
    const legacy = spec.paths['/api/backtest'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(legacy.properties)).toEqual(expect.arrayContaining(['costs_paid', 'alpha', 'beta', 'information_ratio']));
    expect(Object.keys(legacy.properties.trades.items.properties)).toEqual(expect.arrayContaining(['commission', 'exit_reason']));
  });
});
