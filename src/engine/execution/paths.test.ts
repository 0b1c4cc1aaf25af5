/**
 * Cross-checks of the one execution model: with costs, sizing and exits as without, the generic path, the fused
 * passes, the sweep cells and the library replay (a strategy whose rules are a template's signals) give the same
 * trades and metrics, on SPX and on random walks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSpxBars, randomWalkBars } from '../../../test/fixtures/bar-series.js';
import { FUSED_RUNS } from '../fused/index.js';
import { genericTemplateRun } from '../generic-run.js';
import { defaultParameters, findTemplate, runTemplateBacktest, sweepCells, planSweep, type GridSpec } from '../index.js';
import { replayStrategy } from '../replay/replay.js';
import type { ExitReason } from '../replay/types.js';
import { ENTER, EXIT, TEMPLATE_SIGNALS } from '../signals.js';
import type { BacktestRun, BarSeries, ResolvedParameters } from '../types.js';
import { ExecutionModel } from './model.js';
import { NO_COSTS, NO_EXITS, type ExecutionSettings } from './settings.js';

const bits = (values: Float64Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength);

/** Settings a trader would pick, each kind on its own and together. */
const COSTS_AND_SIZING: readonly ExecutionSettings[] = [
  { costs: { ...NO_COSTS, slippage_bps: 5 }, sizing: { mode: 'all_in' }, exits: NO_EXITS },
  { costs: { ...NO_COSTS, commission_per_share: 0.005, commission_min: 1 }, sizing: { mode: 'all_in' }, exits: NO_EXITS },
  { costs: { ...NO_COSTS, commission_pct: 0.001, slippage_bps: 10 }, sizing: { mode: 'percent_of_equity', value: 0.5 }, exits: NO_EXITS },
  { costs: { ...NO_COSTS, commission_min: 4.95, slippage_bps: 1000 }, sizing: { mode: 'fixed_amount', value: 30_000 }, exits: NO_EXITS },
  { costs: { ...NO_COSTS, commission_per_share: 0.01 }, sizing: { mode: 'fixed_shares', value: 20 }, exits: NO_EXITS },
];
const WITH_EXITS: readonly ExecutionSettings[] = [
  { costs: { ...NO_COSTS, slippage_bps: 5, commission_per_share: 0.005, commission_min: 1 }, sizing: { mode: 'all_in' }, exits: { stop_loss_pct: -0.05, take_profit_pct: null, trailing_stop_pct: null } },
  { costs: NO_COSTS, sizing: { mode: 'percent_of_equity', value: 0.8 }, exits: { stop_loss_pct: null, take_profit_pct: 0.1, trailing_stop_pct: 0.04 } },
  { costs: { ...NO_COSTS, commission_pct: 0.002 }, sizing: { mode: 'all_in' }, exits: { stop_loss_pct: -0.03, take_profit_pct: 0.06, trailing_stop_pct: 0.02 } },
];

const TEMPLATES = Object.keys(FUSED_RUNS);
const SPX = loadSpxBars();
const WALK = randomWalkBars(4_000, 3);

function expectSameRun(a: BacktestRun, b: BacktestRun): void {
  expect(bits(a.equity).equals(bits(b.equity))).toBe(true);
  expect(bits(a.drawdowns).equals(bits(b.drawdowns))).toBe(true);
  expect(JSON.stringify(a.trades)).toBe(JSON.stringify(b.trades));
  expect(JSON.stringify(a.metrics)).toBe(JSON.stringify(b.metrics));
  expect(a.costs_paid).toEqual(b.costs_paid);
  expect(a.unfilled_entries).toBe(b.unfilled_entries);
}

describe.each(TEMPLATES)('%s with costs and sizing', (id) => {
  const params = defaultParameters(findTemplate(id)!);
  it.each([['SPX', SPX], ['a random walk', WALK]] as const)('the fused pass equals the generic path on %s', (_name, bars) => {
    for (const execution of COSTS_AND_SIZING) {
      for (const capital of [100_000, 2_000]) {
        const model = new ExecutionModel(execution);
        const fused = FUSED_RUNS[id]!(bars, params, capital, model)!;
        expectSameRun(fused, genericTemplateRun(bars, id, params, capital, model));
        // At 2,000, half the equity buys no SPX share (about 1,455): no trade, one unfilled entry, still equal.
        if (capital === 100_000) expect(fused.metrics.total_trades).toBeGreaterThan(0);
      }
    }
  });
});

describe('the sweep cells with costs, sizing and exits', () => {
  const grids: readonly [string, GridSpec][] = [
    ['sma_crossover', { fast_period: { min: 5, max: 30, step: 5 }, slow_period: { min: 40, max: 100, step: 20 } }],
    ['ema_crossover', { fast_period: [5, 12], slow_period: [26, 50] }],
    ['macd_crossover', { fast_period: [8, 12], slow_period: [26, 40] }],
    ['rsi_reversion', { period: [7, 14], oversold: [25, 35] }],
    ['bollinger_reversion', { period: [10, 20], std_dev: [1.5, 2.5] }],
    ['donchian_breakout', { entry_period: [10, 40], exit_period: [5, 20] }],
  ];
  it.each(grids)('%s: every cell equals its single backtest, on SPX and a random walk', (id, grid) => {
    const template = findTemplate(id)!;
    const cells = planSweep(template, grid).cells;
    for (const bars of [SPX, WALK]) {
      for (const execution of [...COSTS_AND_SIZING, WITH_EXITS[0]!]) {
        const metrics = sweepCells(bars, template, cells, 50_000, execution);
        cells.forEach((params, i) => {
          const single = runTemplateBacktest(bars, template, params, 50_000, execution).metrics;
          for (const [name, value] of Object.entries(metrics[i]!)) expect(Object.is(value, single[name as keyof typeof single]), `cell ${i} ${name}`).toBe(true);
        });
      }
    }
  });
});

/** The template's ENTER and EXIT signals as a library strategy's entry and exit rules. */
function asLibraryInput(bars: BarSeries, id: string, params: ResolvedParameters) {
  const signals = TEMPLATE_SIGNALS[id]!(bars, params);
  const entry = Uint8Array.from(signals, (s) => (s & ENTER ? 1 : 0));
  const exit = Uint8Array.from(signals, (s) => (s & EXIT ? 1 : 0));
  return [{ symbol: 'X', bars, entry, exit }];
}

const LIBRARY_REASON: Readonly<Record<string, ExitReason>> = {
  signal: 'exit_rule',
  stop_loss: 'stop_loss',
  trailing_stop: 'trailing_stop',
  take_profit: 'profit_target',
  end_of_period: 'end_of_period',
};

function expectLibraryEqualsTemplate(bars: BarSeries, id: string, params: ResolvedParameters, capital: number, execution: ExecutionSettings): number {
  const run = runTemplateBacktest(bars, findTemplate(id)!, params, capital, execution);
  const { exits } = execution;
  const strategy = { side: 'long' as const, maxPositionSize: null, stopLossPct: exits.stop_loss_pct, profitTargetPct: exits.take_profit_pct, trailingStopPct: exits.trailing_stop_pct };
  const replay = replayStrategy(asLibraryInput(bars, id, params), strategy, capital, execution);
  expect(Float64Array.from(replay.equity_curve)).toEqual(run.equity);
  expect(replay.trades.length * 2).toBe(run.trades.length);
  replay.trades.forEach((trade, i) => {
    const bought = run.trades[2 * i]!;
    const sold = run.trades[2 * i + 1]!;
    expect([trade.entry_date, trade.entry_price, trade.exit_date, trade.exit_price, trade.qty, trade.exit_reason]).toEqual([
      bought.date.slice(0, 10), bought.price, sold.date.slice(0, 10), sold.price, sold.shares, LIBRARY_REASON[sold.exit_reason!],
    ]);
    expect(trade.commission).toBe(bought.commission + sold.commission);
    // q × (exit − entry) against q × exit − q × entry: equal up to rounding.
    expect(trade.pnl).toBeCloseTo(sold.pnl!, 6);
    expect(trade.return).toBeCloseTo(sold.return!, 12);
  });
  expect(replay.costs_paid).toEqual(run.costs_paid);
  expect(replay.stats.total_return).toBe(run.metrics.total_return);
  expect(replay.stats.sharpe_ratio).toBe(run.metrics.sharpe_ratio);
  expect(replay.stats.max_drawdown).toBe(run.metrics.max_drawdown);
  return replay.trades.length;
}

describe('the library replay of a template\'s signals equals the template', () => {
  it.each(TEMPLATES)('%s on SPX and a random walk, with costs, sizing and exits', (id) => {
    const params = defaultParameters(findTemplate(id)!);
    for (const bars of [SPX, WALK]) {
      for (const execution of [...COSTS_AND_SIZING, ...WITH_EXITS]) {
        expect(expectLibraryEqualsTemplate(bars, id, params, 100_000, execution)).toBeGreaterThan(0);
      }
    }
  });

  it('on random walks and random settings (fast-check)', () => {
    const settings = fc.record({
      costs: fc.record({
        commission_per_share: fc.constantFrom(0, 0.005, 0.02),
        commission_pct: fc.constantFrom(0, 0.001),
        commission_min: fc.constantFrom(0, 1, 4.95),
        slippage_bps: fc.constantFrom(0, 5, 50, 1000),
        commission_per_contract: fc.constant(0),
      }),
      sizing: fc.oneof(
        fc.constant({ mode: 'all_in' as const }),
        fc.double({ min: 0.05, max: 1, noNaN: true }).map((value) => ({ mode: 'percent_of_equity' as const, value })),
        fc.integer({ min: 100, max: 50_000 }).map((value) => ({ mode: 'fixed_amount' as const, value })),
        fc.integer({ min: 1, max: 500 }).map((value) => ({ mode: 'fixed_shares' as const, value })),
      ),
      exits: fc.record({
        stop_loss_pct: fc.option(fc.integer({ min: -30, max: -1 }).map((p) => p / 100), { nil: null }),
        take_profit_pct: fc.option(fc.integer({ min: 1, max: 50 }).map((p) => p / 100), { nil: null }),
        trailing_stop_pct: fc.option(fc.integer({ min: 1, max: 30 }).map((p) => p / 100), { nil: null }),
      }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(...TEMPLATES), settings, fc.constantFrom(1_000, 20_000, 1e6), (seed, id, execution, capital) => {
        const bars = randomWalkBars(400, seed);
        expectLibraryEqualsTemplate(bars, id, defaultParameters(findTemplate(id)!), capital, execution);
        if (execution.exits.stop_loss_pct === null && execution.exits.take_profit_pct === null && execution.exits.trailing_stop_pct === null) {
          const model = new ExecutionModel(execution);
          const fused = FUSED_RUNS[id]!(bars, defaultParameters(findTemplate(id)!), capital, model);
          if (fused) expectSameRun(fused, genericTemplateRun(bars, id, defaultParameters(findTemplate(id)!), capital, model));
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('at the edges of what a request may name (fast-check)', () => {
  /** The walk's prices times `k`: 10⁻⁷ makes a sub-cent series (about $0.00001), where $10¹² buys more than 2⁵³ shares. */
  const scaled = (bars: BarSeries, k: number): BarSeries => {
    const times = (column: Float64Array) => Float64Array.from(column, (x) => x * k);
    return { ...bars, open: times(bars.open), high: times(bars.high), low: times(bars.low), close: times(bars.close) };
  };
  const settings = fc.record({
    costs: fc.record({
      commission_per_share: fc.constantFrom(0, 0.005, 1e6),
      commission_pct: fc.constantFrom(0, 0.001, 1),
      commission_min: fc.constantFrom(0, 1, 1e5, 1e12),
      slippage_bps: fc.constantFrom(0, 5, 1000),
      commission_per_contract: fc.constant(0),
    }),
    sizing: fc.oneof(
      fc.constant({ mode: 'all_in' as const }),
      fc.constantFrom(1e-9, 0.05, 1).map((value) => ({ mode: 'percent_of_equity' as const, value })),
      fc.constantFrom(1e-6, 0.01, 100, 1e12).map((value) => ({ mode: 'fixed_amount' as const, value })),
      fc.constantFrom(1, 7, 1e9).map((value) => ({ mode: 'fixed_shares' as const, value })),
    ),
    exits: fc.record({
      stop_loss_pct: fc.option(fc.constantFrom(-0.999999, -0.05, -1e-9), { nil: null }),
      take_profit_pct: fc.option(fc.constantFrom(1e-9, 0.05, 1000), { nil: null }),
      trailing_stop_pct: fc.option(fc.constantFrom(1e-9, 0.05, 0.999999), { nil: null }),
    }),
  });

  it('every path ends, gives finite numbers and the same answer, at prices from $0.00001 and capitals up to $10¹²', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(...TEMPLATES), settings, fc.constantFrom(0.01, 1_000, 1e12), fc.constantFrom(1e-7, 1, 1e4), (seed, id, execution, capital, k) => {
        const bars = scaled(randomWalkBars(200, seed), k);
        const template = findTemplate(id)!;
        const params = defaultParameters(template);
        const run = runTemplateBacktest(bars, template, params, capital, execution);
        expect(run.equity.every(Number.isFinite)).toBe(true);
        for (const value of Object.values(run.metrics)) expect(value === null || Number.isFinite(value)).toBe(true);
        // The fused pass where it ran (no exits), against the generic path.
        expectSameRun(genericTemplateRun(bars, id, params, capital, new ExecutionModel(execution)), run);
        const [cell] = sweepCells(bars, template, [params], capital, execution);
        for (const [name, value] of Object.entries(cell!)) expect(Object.is(value, run.metrics[name as keyof typeof run.metrics]), name).toBe(true);
        const { exits } = execution;
        const strategy = { side: 'long' as const, maxPositionSize: null, stopLossPct: exits.stop_loss_pct, profitTargetPct: exits.take_profit_pct, trailingStopPct: exits.trailing_stop_pct };
        const replay = replayStrategy(asLibraryInput(bars, id, params), strategy, capital, execution);
        expect(Float64Array.from(replay.equity_curve)).toEqual(run.equity);
        expect(replay.costs_paid).toEqual(run.costs_paid);
      }),
      { numRuns: 200 },
    );
  });
});
