/**
 * The library backtest's replay: one strategy over several symbols with one shared cash, bar by bar on the
 * sorted union of the symbols' dates. Pure and deterministic (no I/O, no clock, no hash-ordered iteration).
 * The rules' signals come in precomputed, so this knows nothing of the rule grammar.
 *
 * Conventions (docs/backtesting.md "Library backtest"): a signal on a symbol's bar t close fills at that
 * symbol's bar t + 1 open, never on its last bar; on one date exits fill before entries, symbols in sorted
 * order; exits are checked on every close from the entry bar's on, stop loss, then profit target, then exit_rule;
 * a position still open on a symbol's last bar is closed at that close (end_of_period).
 */
import { calendarDaysBetween } from '../dates.js';
import { annualizedReturn, exposure, maxDrawdown, roundTripStatistics, sharpeRatio, sortinoRatio } from '../metrics.js';
import { plainArray } from '../plain-array.js';
import { drawdownCurve } from '../simulate.js';
import { FRICTIONLESS } from '../execution/settings.js';
import type { ExitReason, LibraryReplay, LibraryStats, LibraryTrade, ReplayExecution, ReplayStrategy, SymbolReplayInput } from './types.js';

interface OpenPosition {
  readonly qty: number;
  readonly entryPrice: number;
  readonly entryDate: string;
}

interface SymbolState {
  readonly input: SymbolReplayInput;
  readonly close: Float64Array;
  /** Index of this symbol's last bar. */
  readonly last: number;
  /** For each of this symbol's bars, the index of its date in the replay's timeline (filled by `timeline`). */
  readonly dayOfBar: Int32Array;
  /** Index of this symbol's next bar to process. */
  next: number;
  position: OpenPosition | null;
  /** Decided on the previous bar's close, filled at the next bar's open. */
  pending: 'entry' | ExitReason | null;
  /** Whether the symbol has a bar on the date being replayed. */
  hasBarToday: boolean;
}

interface Book {
  cash: number;
  readonly trades: LibraryTrade[];
}

/**
 * Replays `strategy` over every input symbol from `startingCapital`. Requires at least one symbol, each with at
 * least one bar, distinct symbols, signal arrays as long as the bars, and a positive finite capital (the service
 * checks the request first; a breach here is a programming error).
 */
export function replayStrategy(
  inputs: readonly SymbolReplayInput[],
  strategy: ReplayStrategy,
  startingCapital: number,
  execution: ReplayExecution = FRICTIONLESS,
): LibraryReplay {
  const replay = replayStrategyColumns(inputs, strategy, startingCapital, execution);
  return {
    start_date: replay.start_date,
    end_date: replay.end_date,
    starting_capital: replay.starting_capital,
    final_capital: replay.final_capital,
    symbols: replay.symbols,
    dates: replay.dates,
    equity_curve: plainArray(replay.equity),
    drawdowns: plainArray(replay.drawdowns),
    trades: replay.trades,
    stats: replay.stats,
  };
}

/** The replay with its two curves left in the typed arrays it computed them in (no plain copies): `equity`, `drawdowns`. */
export interface LibraryReplayColumns extends Omit<LibraryReplay, 'equity_curve' | 'drawdowns'> {
  readonly equity: Float64Array;
  readonly drawdowns: Float64Array;
}

/** replayStrategy, the curves as typed arrays: for a writer that reads them as they are (the route's body). */
export function replayStrategyColumns(
  inputs: readonly SymbolReplayInput[],
  strategy: ReplayStrategy,
  startingCapital: number,
  _execution: ReplayExecution = FRICTIONLESS,
): LibraryReplayColumns {
  checkInputs(inputs, startingCapital);
  const states: SymbolState[] = [...inputs]
    .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0))
    .map((input) => ({
      input,
      close: input.bars.close,
      last: input.bars.dates.length - 1,
      dayOfBar: new Int32Array(input.bars.dates.length),
      next: 0,
      position: null,
      pending: null,
      hasBarToday: false,
    }));
  const dates = timeline(states);
  const equity = new Float64Array(dates.length);
  const held = new Uint8Array(dates.length);
  const book: Book = { cash: startingCapital, trades: [] };

  // Indexed loops over `states` (no per-date arrays): this loop runs once per date, a million times for long series.
  const count = states.length;
  for (let k = 0; k < dates.length; k++) {
    for (let i = 0; i < count; i++) {
      const s = states[i]!;
      s.hasBarToday = s.next <= s.last && s.dayOfBar[s.next] === k;
    }
    // At the open: every exit first (it frees cash), then every entry.
    for (let i = 0; i < count; i++) {
      const s = states[i]!;
      if (s.hasBarToday && s.pending !== null && s.pending !== 'entry') closePosition(book, s, strategy, s.input.bars.open[s.next]!, s.pending);
    }
    for (let i = 0; i < count; i++) {
      const s = states[i]!;
      if (s.hasBarToday && s.pending === 'entry') openPosition(book, s, states, strategy);
    }
    let marked = book.cash;
    for (let i = 0; i < count; i++) {
      const s = states[i]!;
      if (s.hasBarToday) s.pending = decideOnClose(s, strategy);
      if (s.position === null) continue;
      held[k] = 1;
      const value = s.position.qty * lastClose(s);
      marked += strategy.side === 'long' ? value : -value;
    }
    equity[k] = marked;
    // A position still open on its symbol's last bar is closed at that close: the equity above already marks it there.
    for (let i = 0; i < count; i++) {
      const s = states[i]!;
      if (!s.hasBarToday) continue;
      if (s.next === s.last && s.position !== null) closePosition(book, s, strategy, s.close[s.next]!, 'end_of_period');
      s.next++;
    }
  }

  const drawdowns = drawdownCurve(equity);
  const trades = book.trades.sort((a, b) => (a.entry_date !== b.entry_date ? (a.entry_date < b.entry_date ? -1 : 1) : a.symbol < b.symbol ? -1 : 1));
  return {
    start_date: dates[0]!,
    end_date: dates.at(-1)!,
    starting_capital: startingCapital,
    final_capital: equity[equity.length - 1]!,
    symbols: states.map((s) => s.input.symbol),
    dates,
    equity,
    drawdowns,
    trades,
    stats: libraryStats(dates, equity, drawdowns, trades, held, startingCapital),
  };
}

/**
 * The sorted union of every symbol's bar dates: a merge of the symbols' own ascending, unique dates. Fills each
 * state's `dayOfBar`, so the replay tells whether a symbol has a bar on a date by comparing two integers.
 */
function timeline(states: readonly SymbolState[]): string[] {
  if (states.length === 1) {
    const { dayOfBar } = states[0]!;
    for (let t = 0; t < dayOfBar.length; t++) dayOfBar[t] = t;
    return states[0]!.input.bars.dates.slice();
  }
  const columns = states.map((s) => s.input.bars.dates);
  const at = columns.map(() => 0);
  const union: string[] = [];
  for (;;) {
    let earliest: string | undefined;
    for (let i = 0; i < columns.length; i++) {
      const date = columns[i]![at[i]!];
      if (date !== undefined && (earliest === undefined || date < earliest)) earliest = date;
    }
    if (earliest === undefined) return union;
    for (let i = 0; i < columns.length; i++) {
      if (columns[i]![at[i]!] === earliest) {
        states[i]!.dayOfBar[at[i]!] = union.length;
        at[i]!++;
      }
    }
    union.push(earliest);
  }
}

/** The symbol's close on today's bar, or on its last bar before today (a symbol without a bar today). */
function lastClose(s: SymbolState): number {
  return s.close[s.hasBarToday ? s.next : s.next - 1]!;
}

/**
 * On bar t's close: an exit to fill at t + 1's open (when holding), or an entry (when flat), or nothing.
 * Nothing on the symbol's last bar: there is no next open to fill at.
 */
function decideOnClose(s: SymbolState, strategy: ReplayStrategy): SymbolState['pending'] {
  const t = s.next;
  const { entry, exit } = s.input;
  if (t === s.last) return null;
  if (s.position === null) {
    // No entry_rule: the signal of the first bar's close, once per period.
    const signal = entry === null ? t === 0 : entry[t] === 1;
    return signal ? 'entry' : null;
  }
  // Compared as prices (entry × (1 ± fraction)), as a broker's stop and limit orders are: from an entry at 10, a close
  // of 9 meets a −10 % stop (10 × 0.9 = 9), where the return 9 / 10 − 1 = −0.09999999999999998 would just miss it.
  const close = s.close[t]!;
  const { entryPrice } = s.position;
  if (strategy.stopLossPct !== null && atOrWorse(strategy, close, priceAtReturn(strategy, entryPrice, strategy.stopLossPct))) return 'stop_loss';
  if (strategy.profitTargetPct !== null && atOrWorse(strategy, priceAtReturn(strategy, entryPrice, strategy.profitTargetPct), close)) return 'profit_target';
  if (exit !== null && exit[t] === 1) return 'exit_rule';
  return null;
}

/** The price at which the position has returned `fraction`: long entry × (1 + fraction), short entry × (1 − fraction). */
function priceAtReturn(strategy: ReplayStrategy, entryPrice: number, fraction: number): number {
  return strategy.side === 'long' ? entryPrice * (1 + fraction) : entryPrice * (1 - fraction);
}

/** Whether price `a` is no better than `b` for the position: long a ≤ b, short a ≥ b. */
function atOrWorse(strategy: ReplayStrategy, a: number, b: number): boolean {
  return strategy.side === 'long' ? a <= b : a >= b;
}

/** long: price / entry − 1; short: (entry − price) / entry. Positive is a gain either way. */
function positionReturn(strategy: ReplayStrategy, entryPrice: number, price: number): number {
  return strategy.side === 'long' ? price / entryPrice - 1 : (entryPrice - price) / entryPrice;
}

/**
 * Fills an entry at this bar's open: qty = floor(min(max position size, free cash) / open), free cash being the
 * cash not held against open shorts (their sale proceeds and as much again). No trade when qty < 1.
 */
function openPosition(book: Book, s: SymbolState, states: readonly SymbolState[], strategy: ReplayStrategy): void {
  const price = s.input.bars.open[s.next]!;
  let freeCash = book.cash;
  // A short's proceeds stay held against it, and as much again of the strategy's own cash secures it (a fully
  // collateralized short), so N shorts cannot each use the whole capital.
  if (strategy.side === 'short') for (const other of states) if (other.position) freeCash -= 2 * other.position.qty * other.position.entryPrice;
  const budget = Math.min(strategy.maxPositionSize ?? Infinity, freeCash);
  // The quotient may round up to a whole number (3,047 / 1.1 is 2,770 in doubles, yet 2,770 × 1.1 > 3,047): the
  // largest qty whose cost fits the budget.
  let qty = Math.floor(budget / price);
  if (qty * price > budget) qty -= 1;
  if (!(qty >= 1 && Number.isFinite(qty))) return;
  book.cash += strategy.side === 'long' ? -qty * price : qty * price;
  s.position = { qty, entryPrice: price, entryDate: s.input.bars.dates[s.next]! };
}

function closePosition(book: Book, s: SymbolState, strategy: ReplayStrategy, price: number, reason: ExitReason): void {
  const { qty, entryPrice, entryDate } = s.position!;
  const long = strategy.side === 'long';
  book.cash += long ? qty * price : -qty * price;
  book.trades.push({
    symbol: s.input.symbol,
    side: strategy.side,
    entry_date: entryDate,
    entry_price: entryPrice,
    exit_date: s.input.bars.dates[s.next]!,
    exit_price: price,
    qty,
    pnl: long ? qty * (price - entryPrice) : qty * (entryPrice - price),
    return: positionReturn(strategy, entryPrice, price),
    exit_reason: reason,
    commission: 0,
  });
  s.position = null;
}

/** Every statistic, each defined once in engine/metrics.ts. */
function libraryStats(
  dates: readonly string[],
  equity: Float64Array,
  drawdowns: Float64Array,
  trades: readonly LibraryTrade[],
  held: Uint8Array,
  startingCapital: number,
): LibraryStats {
  const finalCapital = equity[equity.length - 1]!;
  const days = calendarDaysBetween(dates[0]!, dates[dates.length - 1]!);
  const roundTrips = roundTripStatistics(trades.map((t) => ({ pnl: t.pnl, holdingDays: calendarDaysBetween(t.entry_date, t.exit_date) })));
  return {
    total_return: finalCapital / startingCapital - 1,
    annualized_return: annualizedReturn(startingCapital, finalCapital, days),
    sharpe_ratio: sharpeRatio(equity),
    sortino_ratio: sortinoRatio(equity),
    max_drawdown: maxDrawdown(drawdowns),
    ...roundTrips,
    exposure: exposure(held),
  };
}

function checkInputs(inputs: readonly SymbolReplayInput[], startingCapital: number): void {
  if (inputs.length === 0) throw new RangeError('A library backtest needs at least one symbol.');
  if (!(startingCapital > 0 && Number.isFinite(startingCapital))) throw new RangeError('The starting capital must be a positive number.');
  const seen = new Set<string>();
  for (const { symbol, bars, entry, exit } of inputs) {
    if (seen.has(symbol)) throw new RangeError(`Symbol ${symbol} is given twice.`);
    seen.add(symbol);
    const n = bars.dates.length;
    if (n === 0) throw new RangeError(`Symbol ${symbol} has no bars.`);
    if ((entry && entry.length !== n) || (exit && exit.length !== n)) throw new RangeError(`Signals of ${symbol} are not aligned with its bars.`);
  }
}
