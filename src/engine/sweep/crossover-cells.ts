/**
 * The fast path of a crossover sweep (sma_crossover, ema_crossover, macd_crossover): each indicator series is
 * computed once per call (each SMA or EMA period, each MACD line), and each cell is one tight loop over two of those
 * arrays — the crossing, the next-open fill, the equity into one scratch buffer reused by every cell — followed by
 * the fused runs' own metric functions (equityStatistics, sharpeFromSums, RoundTripTally, annualizedReturn). The
 * values are those of runTemplateBacktest bit for bit (sweep-cells.test.ts): the SMA arrays are indicators.ts
 * `sma`, whose exact window sums the fused sma pass carries on the same way, and the EMA recursions are the same
 * multiplications in the same order.
 */
import { dayNumbersOf, type DayNumbers } from '../dates.js';
import { equityStatistics } from '../fused/account.js';
import { ema, sma } from '../indicators.js';
import { annualizedReturn, RoundTripTally, sharpeFromSums } from '../metrics.js';
import { calendarDaysBetween } from '../dates.js';
import { crossing, ENTER, EXIT } from '../signals.js';
import type { BarSeries, ResolvedParameters } from '../types.js';
import type { CellMetrics } from './cell-metrics.js';

/** What every cell of one call shares: the bars' columns, the capital, the scratch equity and the period's days. */
export class CellContext {
  readonly open: Float64Array;
  readonly close: Float64Array;
  readonly dates: readonly string[];
  readonly days: DayNumbers;
  readonly calendarDays: number;
  readonly equity: Float64Array;
  readonly initialCapital: number;

  constructor(bars: BarSeries, initialCapital: number) {
    this.open = bars.open;
    this.close = bars.close;
    this.dates = bars.dates;
    this.days = dayNumbersOf(bars.dates);
    this.calendarDays = calendarDaysBetween(bars.dates[0]!, bars.dates[bars.dates.length - 1]!);
    this.equity = new Float64Array(bars.close.length);
    this.initialCapital = initialCapital;
  }
}

/** Each series computed on first use and kept for the rest of the call. */
class SeriesCache {
  readonly #made = new Map<string, Float64Array>();

  get(key: string, make: () => Float64Array): Float64Array {
    let series = this.#made.get(key);
    if (series === undefined) {
      series = make();
      this.#made.set(key, series);
    }
    return series;
  }
}

/**
 * A crossover cell: the fast and slow series (defined from bar first − 1) whose crossing on a close is the signal,
 * or null when the single backtest would not take its one-pass path (too few bars to trade) and the cell is left to it.
 */
export type CrossoverCellSeries = (params: ResolvedParameters) => { fast: Float64Array; slow: Float64Array; first: number } | null;

/** The series of each crossover template's cells, made once per call from the bars' closes. */
export function crossoverSeries(templateId: string, close: Float64Array): CrossoverCellSeries | undefined {
  const cache = new SeriesCache();
  const n = close.length;
  const wholePeriods = (...periods: number[]) => periods.every((p) => Number.isInteger(p) && p >= 1);
  switch (templateId) {
    case 'sma_crossover':
      return (p) => {
        const fastPeriod = p.fast_period!;
        const slowPeriod = p.slow_period!;
        const first = Math.max(fastPeriod, slowPeriod);
        if (!wholePeriods(fastPeriod, slowPeriod) || n <= first) return null;
        const fast = cache.get(`sma ${fastPeriod}`, () => sma(close, fastPeriod));
        const slow = cache.get(`sma ${slowPeriod}`, () => sma(close, slowPeriod));
        return { fast, slow, first };
      };
    case 'ema_crossover':
      return (p) => {
        const fastPeriod = p.fast_period!;
        const slowPeriod = p.slow_period!;
        const first = Math.max(fastPeriod, slowPeriod);
        if (!wholePeriods(fastPeriod, slowPeriod) || n <= first) return null;
        const fast = cache.get(`ema ${fastPeriod}`, () => ema(close, fastPeriod));
        const slow = cache.get(`ema ${slowPeriod}`, () => ema(close, slowPeriod));
        return { fast, slow, first };
      };
    case 'macd_crossover':
      return (p) => {
        const fastPeriod = p.fast_period!;
        const slowPeriod = p.slow_period!;
        const signalPeriod = p.signal_period!;
        // The line is defined from bar slowPeriod − 1, its signal line from first − 1 (as fused/macd-crossover.ts).
        const lineFrom = slowPeriod - 1;
        const first = lineFrom + signalPeriod;
        if (!wholePeriods(fastPeriod, slowPeriod, signalPeriod) || n <= first) return null;
        // The EMAs seeded with the first close at every bar (indicators.ts emaInto, as macd), shared by the lines.
        const fastEma = cache.get(`ema* ${fastPeriod}`, () => seededEma(close, fastPeriod));
        const slowEma = cache.get(`ema* ${slowPeriod}`, () => seededEma(close, slowPeriod));
        const line = cache.get(`macd ${fastPeriod} ${slowPeriod}`, () => {
          const out = new Float64Array(n).fill(NaN, 0, lineFrom);
          for (let i = lineFrom; i < n; i++) out[i] = fastEma[i]! - slowEma[i]!;
          return out;
        });
        const signal = cache.get(`signal ${fastPeriod} ${slowPeriod} ${signalPeriod}`, () => ema(line, signalPeriod, lineFrom));
        return { fast: line, slow: signal, first };
      };
    default:
      return undefined;
  }
}

/** indicators.ts emaInto: e = x·k + e·(1 − k) from the first value, every bar written. */
function seededEma(values: Float64Array, period: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  const k = 2 / (period + 1);
  const keep = 1 - k;
  let previous = values[0]!;
  out[0] = previous;
  for (let i = 1; i < n; i++) {
    previous = values[i]! * k + previous * keep;
    out[i] = previous;
  }
  return out;
}

/**
 * One crossover cell over the shared context: the account of fused/account.ts (a signal on close t fills at open
 * t + 1; all cash in whole shares; an open position sold at the last close) with the equity in the scratch buffer,
 * then the metrics as FusedAccount.finish computes them.
 */
export function crossoverCell(context: CellContext, fast: Float64Array, slow: Float64Array, first: number): CellMetrics {
  const { open, close, equity, initialCapital, days } = context;
  const n = close.length;
  const last = n - 1;
  const tally = new RoundTripTally();
  equity.fill(initialCapital, 0, first);
  let cash = initialCapital;
  let shares = 0;
  let wanted = ENTER;
  let entryBar = 0;
  let entryPrice = 0;
  let pending = 0;
  let fastBefore = fast[first - 1]!;
  let slowBefore = slow[first - 1]!;
  for (let t = first; t < n; ) {
    if (pending & wanted) {
      const price = open[t]!;
      if (wanted === ENTER) {
        const bought = Math.floor(cash / price);
        // Cannot buy one share: still flat, the next entry signal may act.
        if (bought >= 1 && Number.isFinite(bought)) {
          shares = bought;
          cash -= bought * price;
          wanted = EXIT;
          entryBar = t;
          entryPrice = price;
        }
      } else {
        cash += shares * price;
        tally.add(shares * price - shares * entryPrice, days.between(entryBar, t));
        shares = 0;
        wanted = ENTER;
      }
    }
    // The bars up to the next close whose signal acts, then their equity (nothing fills in between).
    const start = t;
    do {
      const fastNow = fast[t]!;
      const slowNow = slow[t]!;
      pending = crossing(fastBefore, slowBefore, fastNow, slowNow);
      fastBefore = fastNow;
      slowBefore = slowNow;
      t++;
    } while (t < n && (pending & wanted) === 0);
    if (shares === 0) equity.fill(cash, start, t);
    else for (let u = start; u < t; u++) equity[u] = cash + shares * close[u]!;
  }
  if (shares > 0) tally.add(shares * close[last]! - shares * entryPrice, days.between(entryBar, last));
  const { lowest, returnSum, returnSquares, shift } = equityStatistics(equity, first, initialCapital);
  const finalCapital = equity[last]!;
  const trades = tally.statistics();
  return {
    total_return: finalCapital / initialCapital - 1,
    annualized_return: annualizedReturn(initialCapital, finalCapital, context.calendarDays),
    sharpe_ratio: sharpeFromSums(returnSum, returnSquares, last, shift),
    max_drawdown: lowest,
    win_rate: trades.win_rate,
    profit_factor: trades.profit_factor,
    total_trades: trades.total_trades,
  };
}
