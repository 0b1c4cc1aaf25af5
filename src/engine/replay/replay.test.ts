/**
 * Properties of the library replay over random bars, signals and strategies (fast-check): the cash of a long-only
 * run never goes below 0, the final equity is the starting capital plus the trades' pnl, and nothing after a date
 * changes what happened up to it (no look-ahead). Also: determinism and the input checks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BarSeries } from '../types.js';
import { replayStrategy } from './replay.js';
import type { ReplayStrategy, SymbolReplayInput } from './types.js';

const DAY = 86_400_000;
const dateOf = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * DAY).toISOString().slice(0, 10);

interface RandomBar {
  readonly open: number;
  readonly close: number;
  readonly entry: boolean;
  readonly exit: boolean;
  /** This symbol has a bar on this date. */
  readonly present: boolean;
}

const price = fc.integer({ min: 100, max: 20_000 }).map((cents) => cents / 100);
const randomBar = fc.record({ open: price, close: price, entry: fc.boolean(), exit: fc.boolean(), present: fc.boolean() });

const strategyArb = (sides: readonly ('long' | 'short')[]) =>
  fc.record({
    side: fc.constantFrom(...sides),
    maxPositionSize: fc.option(fc.integer({ min: 50, max: 5000 }), { nil: null }),
    profitTargetPct: fc.option(fc.integer({ min: 1, max: 100 }).map((p) => p / 100), { nil: null }),
    stopLossPct: fc.option(fc.integer({ min: -90, max: -1 }).map((p) => p / 100), { nil: null }),
    trailingStopPct: fc.constant(null),
  });

/** 1–3 symbols over one grid of 2–25 dates; each symbol has a random subset of the dates (at least one). */
const universe = fc.integer({ min: 2, max: 25 }).chain((days) =>
  fc.array(fc.record({ bars: fc.array(randomBar, { minLength: days, maxLength: days }), noEntryRule: fc.boolean(), noExitRule: fc.boolean() }), {
    minLength: 1,
    maxLength: 3,
  }),
);

type Universe = readonly { bars: readonly RandomBar[]; noEntryRule: boolean; noExitRule: boolean }[];

function inputsOf(symbols: Universe): SymbolReplayInput[] {
  return symbols.map((s, i) => {
    const rows = s.bars.map((bar, day) => ({ ...bar, date: dateOf(day) })).filter((bar, day) => bar.present || day === i % s.bars.length);
    const bars: BarSeries = {
      dates: rows.map((r) => r.date),
      open: Float64Array.from(rows, (r) => r.open),
      close: Float64Array.from(rows, (r) => r.close),
      high: Float64Array.from(rows, (r) => Math.max(r.open, r.close)),
      low: Float64Array.from(rows, (r) => Math.min(r.open, r.close)),
      volume: new Float64Array(rows.length),
    };
    return {
      symbol: `S${i}`,
      bars,
      entry: s.noEntryRule ? null : Uint8Array.from(rows, (r) => (r.entry ? 1 : 0)),
      exit: s.noExitRule ? null : Uint8Array.from(rows, (r) => (r.exit ? 1 : 0)),
    };
  });
}

const capitalArb = fc.integer({ min: 100, max: 10_000 });

describe('library replay properties', () => {
  it('long only: the cash never goes below 0 (rebuilt from the trades after each date\'s fills)', () => {
    fc.assert(
      fc.property(universe, strategyArb(['long']), capitalArb, (symbols, strategy, capital) => {
        const result = replayStrategy(inputsOf(symbols), strategy, capital);
        for (const date of result.dates) {
          let cash = capital;
          for (const t of result.trades) {
            if (t.entry_date <= date) cash -= t.qty * t.entry_price;
            if (t.exit_date <= date) cash += t.qty * t.exit_price;
          }
          expect(cash).toBeGreaterThanOrEqual(-1e-9 * capital);
        }
      }),
    );
  });

  it('final equity = starting capital + Σ pnl, long or short; trades never overlap on a symbol', () => {
    fc.assert(
      fc.property(universe, strategyArb(['long', 'short']), capitalArb, (symbols, strategy: ReplayStrategy, capital) => {
        const result = replayStrategy(inputsOf(symbols), strategy, capital);
        const pnl = result.trades.reduce((sum, t) => sum + t.pnl, 0);
        expect(Math.abs(result.final_capital - (capital + pnl))).toBeLessThanOrEqual(1e-9 * Math.max(capital, Math.abs(pnl)));
        expect(result.equity_curve[0]).toBe(capital);
        expect(result.stats.total_trades).toBe(result.trades.length);
        const lastExit = new Map<string, string>();
        for (const t of [...result.trades].sort((a, b) => (a.entry_date < b.entry_date ? -1 : 1))) {
          expect(t.qty).toBeGreaterThanOrEqual(1);
          expect(t.exit_date >= t.entry_date).toBe(true);
          expect(t.entry_date > (lastExit.get(t.symbol) ?? '')).toBe(true);
          lastExit.set(t.symbol, t.exit_date);
          if (strategy.maxPositionSize !== null) expect(t.qty * t.entry_price).toBeLessThanOrEqual(strategy.maxPositionSize);
        }
        for (const d of result.drawdowns) expect(d).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('no look-ahead: new prices and signals after a date change no trade exited by it, no entry and no equity up to it', () => {
    fc.assert(
      fc.property(
        universe,
        strategyArb(['long', 'short']),
        capitalArb,
        fc.nat(),
        fc.array(randomBar, { minLength: 25, maxLength: 25 }),
        (symbols, strategy, capital, cut, replacements) => {
          const days = symbols[0]!.bars.length;
          const k = cut % days; // the last date kept as is
          const changed = symbols.map((s) => ({
            ...s,
            bars: s.bars.map((bar, day) => (day <= k ? bar : { ...replacements[day]!, present: bar.present })),
          }));
          const before = replayStrategy(inputsOf(symbols), strategy, capital);
          const after = replayStrategy(inputsOf(changed), strategy, capital);
          const cutDate = dateOf(k);
          const k2 = before.dates.indexOf(cutDate);
          expect(after.dates).toEqual(before.dates);
          if (k2 >= 0) expect(after.equity_curve.slice(0, k2 + 1)).toEqual(before.equity_curve.slice(0, k2 + 1));
          const exited = (r: typeof before) => r.trades.filter((t) => t.exit_date <= cutDate);
          expect(exited(after)).toEqual(exited(before));
          const entered = (r: typeof before) =>
            r.trades.filter((t) => t.entry_date <= cutDate).map((t) => [t.symbol, t.entry_date, t.entry_price, t.qty]);
          expect(entered(after)).toEqual(entered(before));
        },
      ),
    );
  });

  it('is deterministic: the same inputs give the same JSON, whatever the order of the symbols', () => {
    fc.assert(
      fc.property(universe, strategyArb(['long', 'short']), capitalArb, (symbols, strategy, capital) => {
        const inputs = inputsOf(symbols);
        const once = JSON.stringify(replayStrategy(inputs, strategy, capital));
        expect(JSON.stringify(replayStrategy([...inputs].reverse(), strategy, capital))).toBe(once);
      }),
      { numRuns: 50 },
    );
  });

  it('buys the most shares whose cost fits the budget, even where the quotient rounds up to a whole number', () => {
    // 3,047 / 1.1 is 2,770 in doubles, but 2,770 × 1.1 is 3,047.0000000000005: 2,769 shares fit (found by the property above).
    const bars: BarSeries = {
      dates: ['2024-01-01', '2024-01-02', '2024-01-03'],
      open: Float64Array.of(1, 1.1, 1),
      close: Float64Array.of(1, 1, 1),
      high: Float64Array.of(1, 1.1, 1),
      low: Float64Array.of(1, 1, 1),
      volume: new Float64Array(3),
    };
    for (const maxPositionSize of [3047, null]) {
      const strategy: ReplayStrategy = { side: 'long', maxPositionSize, profitTargetPct: null, stopLossPct: null, trailingStopPct: null };
      const result = replayStrategy([{ symbol: 'A', bars, entry: Uint8Array.of(1, 0, 0), exit: null }], strategy, 3047);
      expect(result.trades.map((t) => t.qty)).toEqual([2769]);
    }
  });

  it('refuses inputs the service must have checked', () => {
    const bars: BarSeries = { dates: ['2024-01-01'], open: Float64Array.of(1), close: Float64Array.of(1), high: Float64Array.of(1), low: Float64Array.of(1), volume: Float64Array.of(1) };
    const long: ReplayStrategy = { side: 'long', maxPositionSize: null, profitTargetPct: null, stopLossPct: null, trailingStopPct: null };
    expect(() => replayStrategy([], long, 100)).toThrow(RangeError);
    expect(() => replayStrategy([{ symbol: 'A', bars, entry: null, exit: null }], long, 0)).toThrow(RangeError);
    expect(() => replayStrategy([{ symbol: 'A', bars, entry: new Uint8Array(2), exit: null }], long, 100)).toThrow(RangeError);
    expect(() => replayStrategy([{ symbol: 'A', bars, entry: null, exit: null }, { symbol: 'A', bars, entry: null, exit: null }], long, 100)).toThrow(RangeError);
  });
});
