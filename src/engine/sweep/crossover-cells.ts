/**
 * The fast path of a crossover sweep (sma_crossover, ema_crossover, macd_crossover): each indicator series is
 * computed once per call (each SMA or EMA period, each MACD line), and each cell is one tight loop over two of those
 * arrays — the crossing, the next-open fill, each bar's equity into the running statistics of the fused runs'
 * equityStatistics — and the fused runs' own metric functions (sharpeFromSums, RoundTripTally, annualizedReturn). The
 * values are those of runTemplateBacktest bit for bit (sweep-cells.test.ts): the SMA arrays are indicators.ts
 * `sma`, whose exact window sums the fused sma pass carries on the same way, and the EMA recursions are the same
 * multiplications in the same order.
 */
import { dayNumbersOf, type DayNumbers } from '../dates.js';
import { ema, sma } from '../indicators.js';
import { annualizedReturn, RoundTripTally, sharpeFromSums } from '../metrics.js';
import { calendarDaysBetween } from '../dates.js';
import { ENTER, EXIT } from '../signals.js';
import type { BarSeries, ResolvedParameters } from '../types.js';
import type { CellMetrics } from './cell-metrics.js';

/** What every cell of one call shares: the bars' columns, the capital and the calendar days. */
export class CellContext {
  readonly open: Float64Array;
  readonly close: Float64Array;
  readonly dates: readonly string[];
  readonly days: DayNumbers;
  readonly calendarDays: number;
  readonly initialCapital: number;

  constructor(bars: BarSeries, initialCapital: number) {
    this.open = bars.open;
    this.close = bars.close;
    this.dates = bars.dates;
    this.days = dayNumbersOf(bars.dates);
    this.calendarDays = calendarDaysBetween(bars.dates[0]!, bars.dates[bars.dates.length - 1]!);
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
 * t + 1; all cash in whole shares; an open position sold at the last close), and the metrics as
 * FusedAccount.finish computes them. The equity is never stored: each bar's value goes straight into the running
 * lowest drawdown and return sums of fused/account.ts equityStatistics, by the same operations in the same order.
 * A flat stretch is observed once: its repeated value is a return of exactly +0 (first ≥ 2, so no shift), which
 * leaves both sums as they are, and it cannot lower the drawdown again. Requires first ≥ 2.
 */
export function crossoverCell(context: CellContext, fast: Float64Array, slow: Float64Array, first: number): CellMetrics {
  const { open, close, initialCapital, days } = context;
  const n = close.length;
  const last = n - 1;
  const tally = new RoundTripTally();
  let cash = initialCapital;
  let shares = 0;
  let wanted = ENTER;
  let entryBar = 0;
  let entryPrice = 0;
  let pending = 0;
  // equityStatistics' running state, from bar `first` (the bars before it hold the initial capital).
  let peak = initialCapital;
  let previous = initialCapital;
  let lowest = 0;
  let ratio = (1 + 1e-15) * (1 + 1e-15);
  let deepest = peak * ratio;
  let returnSum = 0;
  let returnSquares = 0;
  let value = initialCapital;
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
    pending = 0;
    // The bars up to the next close whose signal acts (nothing fills in between), then their equity. Only the
    // signal that acts is looked for: while flat, fast crossing above slow (crossing's ENTER: before ≤, now >);
    // while long, crossing below (EXIT: before ≥, now <). The series are defined (not NaN) from bar first − 1.
    const start = t;
    if (wanted === ENTER) {
      let before = fast[t - 1]! <= slow[t - 1]!;
      for (;;) {
        const above = fast[t]! > slow[t]!;
        t++;
        if (above && before) {
          pending = ENTER;
          break;
        }
        if (t === n) break;
        before = !above; // fast ≤ slow on the bar just tested (no NaN from first − 1 on)
      }
    } else {
      let before = fast[t - 1]! >= slow[t - 1]!;
      for (;;) {
        const below = fast[t]! < slow[t]!;
        t++;
        if (below && before) {
          pending = EXIT;
          break;
        }
        if (t === n) break;
        before = !below;
      }
    }
    for (let u = start; u < t; u++) {
      value = shares === 0 ? cash : cash + shares * close[u]!;
      // As equityStatistics, bar by bar, with the new-peak branch made a max (that branch goes either way on a
      // rising equity and was mispredicted): at a new peak, value < value · ratio only while ratio > 1 (no drawdown
      // yet), and then the division gives 0, which is not below the lowest (0).
      peak = Math.max(peak, value);
      deepest = peak * ratio;
      if (value < deepest) {
        const drawdown = value / peak - 1;
        if (drawdown < lowest) {
          lowest = drawdown;
          ratio = (1 + drawdown + 1e-15) * (1 + 1e-15);
          deepest = peak * ratio;
        }
      }
      const d = value !== previous && previous !== 0 ? value / previous - 1 : 0;
      returnSum += d;
      returnSquares += d * d;
      previous = value;
      if (shares === 0) break; // the rest of a flat stretch repeats this value
    }
  }
  if (shares > 0) tally.add(shares * close[last]! - shares * entryPrice, days.between(entryBar, last));
  const finalCapital = value;
  const trades = tally.statistics();
  return {
    total_return: finalCapital / initialCapital - 1,
    annualized_return: annualizedReturn(initialCapital, finalCapital, context.calendarDays),
    sharpe_ratio: sharpeFromSums(returnSum, returnSquares, last, 0),
    max_drawdown: lowest,
    win_rate: trades.win_rate,
    profit_factor: trades.profit_factor,
    total_trades: trades.total_trades,
  };
}
