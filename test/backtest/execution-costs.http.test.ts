import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { loadDemoDataIfEmpty } from '../../src/market/bar-store.service.js';
import { roundFraction } from '../../src/engine/index.js';
import { buildTestApp } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { COSTS, HAND, SPX, storeHandMadeBars } from './execution-kit.js';

/**
 * Issue 25 over HTTP, costed runs: a backtest against a hand computation, the response cache keyed on the costs,
 * a comparison and a sweep with costs (each entry and cell its single costed backtest), on both dialects.
 */
describeEachDialect('costed backtests over HTTP', (database) => {
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

});
