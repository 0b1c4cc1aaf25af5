/**
 * Each fused template run gives, byte for byte, what the generic path (signals, simulate, computeMetrics) gives:
 * the equity and drawdown curves bit for bit, the same trades and the same metrics, in the same key order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSpxBars, randomWalkBars } from '../../../test/fixtures/bar-series.js';
import { tiedMeansSeries } from '../../../test/fixtures/exact-sums.js';
import { genericTemplateRun } from '../generic-run.js';
import type { BacktestRun, BarSeries, ResolvedParameters } from '../types.js';
import { sma } from '../indicators.js';
import { FUSED_RUNS } from './index.js';
import { windowSumThrough } from './window-sum.js';

const FUSED = Object.keys(FUSED_RUNS);

function bits(values: Float64Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

function expectSameRun(bars: BarSeries, id: string, params: ResolvedParameters, capital: number): BacktestRun | null {
  const fused = FUSED_RUNS[id]!(bars, params, capital);
  if (fused === null) return null; // left to the generic path
  const generic = genericTemplateRun(bars, id, params, capital);
  expect(bits(fused.equity).equals(bits(generic.equity))).toBe(true);
  expect(bits(fused.drawdowns).equals(bits(generic.drawdowns))).toBe(true);
  expect(JSON.stringify(fused.trades)).toBe(JSON.stringify(generic.trades));
  expect(fused.trades).toEqual(generic.trades);
  expect(JSON.stringify(fused.metrics)).toBe(JSON.stringify(generic.metrics));
  expect(fused.metrics).toEqual(generic.metrics);
  return fused;
}

/** Every fused template's parameters in one object (each template reads its own). */
const params = (overrides: Record<string, number> = {}): ResolvedParameters => ({
  fast_period: 10,
  slow_period: 30,
  signal_period: 9,
  period: 14,
  oversold: 30,
  overbought: 70,
  std_dev: 2,
  entry_period: 20,
  exit_period: 10,
  ...overrides,
});

const PERIODS = [
  params(),
  params({ fast_period: 12, slow_period: 26, period: 2, oversold: 45, overbought: 55, std_dev: 0.5, entry_period: 5, exit_period: 40 }),
  params({ fast_period: 2, slow_period: 5, signal_period: 2, period: 5, oversold: 1, overbought: 99, entry_period: 2, exit_period: 2 }),
  params({ fast_period: 50, slow_period: 200, signal_period: 1, period: 100, oversold: 49.5, overbought: 50.5, std_dev: 5, entry_period: 400, exit_period: 3 }),
  params({ fast_period: 100, slow_period: 400, signal_period: 100, period: 1, entry_period: 100, exit_period: 400 }),
  // Not allowed by the templates' validation, still the same computation.
  params({ fast_period: 30, slow_period: 10, signal_period: 3, oversold: 80, overbought: 20, entry_period: 1, exit_period: 1 }),
  params({ fast_period: 1, slow_period: 1, signal_period: 1 }),
];

describe.each(FUSED)('%s: the fused pass equals the generic path', (id) => {
  it('on SPX, for several periods and capitals (including one too small to buy a share)', () => {
    const spx = loadSpxBars();
    for (const params of PERIODS) {
      for (const capital of [100_000, 1_000, 50, 1e12]) {
        const run = expectSameRun(spx, id, params, capital);
        expect(run).not.toBeNull();
      }
    }
  });

  it('on random walks, across renormalisations of the window sums', () => {
    for (const [n, seed] of [[5_000, 1], [20_000, 7], [3_000, 42]] as const) {
      const walk = randomWalkBars(n, seed);
      for (const params of PERIODS.slice(0, 5)) expect(expectSameRun(walk, id, params, 100_000)).not.toBeNull();
    }
  });

  it('on prices over 15 orders of magnitude', () => {
    const walk = randomWalkBars(6_000, 11);
    const wild = Float64Array.from(walk.close, (c, i) => c * 10 ** ((i * 7919) % 16 - 8) * (1 + i / 3));
    const bars = { ...walk, open: wild, close: wild };
    for (const periods of PERIODS.slice(0, 4)) expect(expectSameRun(bars, id, periods, 1e15)).not.toBeNull();
  });

  it('on series whose means tie exactly', () => {
    for (const [length, fast, slow, cents] of [[200, 5, 20, 1484.6], [100_000, 10, 30, 1484]] as const) {
      const { bars } = tiedMeansSeries(length, fast, slow, cents, 17);
      const periods = params({ fast_period: fast, slow_period: slow, signal_period: 2, period: fast, entry_period: fast, exit_period: slow });
      expect(expectSameRun(bars, id, periods, 100_000)).not.toBeNull();
    }
  });

  it('on flat prices that then move: a crossing out of an exact tie', () => {
    const moves = [...Array(80).fill(100), 101, 103, 104, 102, 99, 97, 98, ...Array(40).fill(98), 100, 96];
    const series = randomWalkBars(moves.length, 5);
    const bars = { ...series, open: Float64Array.from(moves), close: Float64Array.from(moves) };
    const trades = PERIODS.slice(0, 3).map((periods) => expectSameRun(bars, id, periods, 100_000)!.trades.length);
    expect(trades.some((count) => count > 0)).toBe(true);
  });

  it('on an RSI exactly at its level before crossing it (gain = loss: RSI 50)', () => {
    const closes = [10, 11, 10, 9, 9, 10, 11, 12, 13, 12, 11, 12, 13];
    const series = randomWalkBars(closes.length, 9);
    const bars = { ...series, open: Float64Array.from(closes), close: Float64Array.from(closes) };
    const run = expectSameRun(bars, id, params({ fast_period: 2, slow_period: 3, signal_period: 2, period: 2, oversold: 50, overbought: 75, entry_period: 2, exit_period: 3 }), 1_000);
    expect(run).not.toBeNull();
  });

  it('on too few bars to trade, leaves the run to the generic path', () => {
    const walk = randomWalkBars(id === 'buy_and_hold' ? 1 : 30, 3);
    expect(FUSED_RUNS[id]!(walk, params({ slow_period: 30, signal_period: 1, period: 30, entry_period: 30 }), 100_000)).toBeNull();
    const enough = id === 'buy_and_hold' ? randomWalkBars(2, 3) : walk;
    expect(expectSameRun(enough, id, params({ slow_period: 29, signal_period: 1, period: 28, entry_period: 29 }), 100_000)).not.toBeNull();
  });

  it('on random small-integer prices (frequent ties and crossings)', () => {
    const bars = fc
      .array(fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 2 })), {
        minLength: 1,
        maxLength: 300,
      })
      .map((rows): BarSeries => {
        let day = Date.UTC(2020, 0, 1);
        return {
          dates: rows.map((row) => new Date((day += 86_400_000 * (1 + row[2]))).toISOString().slice(0, 10)),
          open: Float64Array.from(rows, (r) => r[0]),
          close: Float64Array.from(rows, (r) => r[1] / (r[2] === 1 ? 10 : 1)),
          high: Float64Array.from(rows, (r) => Math.max(r[0], r[1]) + 1),
          low: Float64Array.from(rows, () => 0.5),
          volume: new Float64Array(rows.length),
        };
      });
    const periods = fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 12 }));
    const levels = fc.tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 40, max: 99 }));
    fc.assert(
      fc.property(bars, periods, levels, fc.constantFrom(1_000, 100, 10), (series, [fast, slow, signal], [low, high], capital) => {
        const overrides = {
          ...{ fast_period: fast, slow_period: slow, signal_period: signal, period: fast, oversold: low, overbought: high },
          ...{ std_dev: signal / 4, entry_period: fast, exit_period: signal },
        };
        expectSameRun(series, id, params(overrides), capital);
      }),
      { numRuns: 300 },
    );
  });
});

describe("a fused run's trades and drawdowns", () => {
  it('are built on the first read and then kept', () => {
    const walk = randomWalkBars(2_000, 4);
    const run = FUSED_RUNS.sma_crossover!(walk, params(), 100_000)!;
    const trades = run.trades;
    expect(trades.length).toBe(2 * run.metrics.total_trades);
    expect(run.trades).toBe(trades);
    expect(run.drawdowns).toBe(run.drawdowns);
    expect(run.drawdowns.length).toBe(walk.close.length);
  });
});

describe('donchian_breakout with a NaN high or low', () => {
  it('leaves the run to the generic path (a deque and indicators.ts highest/lowest treat a NaN differently)', () => {
    const walk = randomWalkBars(500, 21);
    for (const at of [3, 250]) {
      for (const column of ['high', 'low'] as const) {
        const values = Float64Array.from(walk[column]);
        values[at] = NaN;
        expect(FUSED_RUNS.donchian_breakout!({ ...walk, [column]: values }, params(), 100_000)).toBeNull();
      }
    }
    expect(FUSED_RUNS.donchian_breakout!(walk, params(), 100_000)).not.toBeNull();
  });
});

describe('windowSumThrough', () => {
  it('ends where rollingSums is at that bar, bit for bit, across renormalisations and beyond the exactness bound', () => {
    const walk = randomWalkBars(5_000, 13);
    const wild = Float64Array.from(walk.close, (c, i) => c * 10 ** ((i * 7919) % 16 - 8) * (1 + i / 3));
    for (const values of [walk.close, wild]) {
      for (const period of [1, 7, 30, 400]) {
        const means = sma(values, period);
        for (const end of [period, period + 1, period + 1023, period + 1024, period + 1025, 4_321, 5_000]) {
          const { hi, lo } = windowSumThrough(values, period, end);
          expect(Object.is((hi + lo) / period, means[end - 1])).toBe(true);
        }
      }
    }
  });
});
