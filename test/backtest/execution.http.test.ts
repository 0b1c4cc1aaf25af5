import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { loadDemoDataIfEmpty } from '../../src/market/bar-store.service.js';
import { relativeMetrics } from '../../src/engine/benchmark/index.js';
import { sharpeRatio } from '../../src/engine/metrics.js';
import { roundFraction, roundFractionOrNull } from '../../src/engine/index.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { HAND, SPX, storeHandMadeBars } from './execution-kit.js';

/**
 * Issue 25 over HTTP: `costs`, `sizing`, `exits` and `benchmark` on POST /api/backtest, /api/compare-strategies and
 * /api/backtest/sweep: the refusals, the benchmark block (a second symbol with a missing date, unknown, too short,
 * the symbol itself), zero costs as today, OpenAPI. Costed runs: execution-costs.http.test.ts; the library run:
 * library-execution.http.test.ts.
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
