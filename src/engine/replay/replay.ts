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
import { ExecutionModel, positionReturn } from '../execution/model.js';
import { FRICTIONLESS, NO_EXITS, SIGNAL, STOP_LOSS, TAKE_PROFIT, TRAILING_STOP, type CostsPaid } from '../execution/settings.js';
import type { ExitReason, LibraryReplay, LibraryStats, LibraryTrade, ReplayExecution, ReplayStrategy, SymbolReplayInput } from './types.js';

interface OpenPosition {
  readonly qty: number;
  /** The entry's fill price (slippage included) and commission. */
  readonly entryPrice: number;
  readonly entryCommission: number;
  readonly entryDate: string;
  /** The highest close since the entry (short: the lowest), the entry bar's close included: the trailing stop's reference. */
  extreme: number;
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
  readonly model: ExecutionModel;
  /** For percent_of_equity: the equity on each date's close so far. */
  readonly equity: Float64Array;
  commissionPaid: number;
  slippagePaid: number;
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
): LibraryReplay & { costs_paid: CostsPaid } {
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
    costs_paid: replay.costs_paid,
  };
}

/** The replay with its two curves left in the typed arrays it computed them in (no plain copies): `equity`, `drawdowns`. */
export interface LibraryReplayColumns extends Omit<LibraryReplay, 'equity_curve' | 'drawdowns'> {
  readonly equity: Float64Array;
  readonly drawdowns: Float64Array;
  /** Σ commissions and Σ |fill − reference| × qty over every fill (the HTTP layer prints it when a request names costs). */
  readonly costs_paid: CostsPaid;
}

/** replayStrategy, the curves as typed arrays: for a writer that reads them as they are (the route's body). */
export function replayStrategyColumns(
  inputs: readonly SymbolReplayInput[],
  strategy: ReplayStrategy,
  startingCapital: number,
  execution: ReplayExecution = FRICTIONLESS,
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
  // The strategy's own rule fields are its exits (ReplayStrategy); the settings bring costs and sizing.
  const model = new ExecutionModel({ ...execution, exits: NO_EXITS });
  const book: Book = { cash: startingCapital, trades: [], model, equity, commissionPaid: 0, slippagePaid: 0 };

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
    for (let i = 0; i < count; i++) {
      const s = states[i]!;
      if (s.hasBarToday) s.pending = decideOnClose(s, strategy);
      if (s.position !== null) held[k] = 1;
    }
    equity[k] = marked(book, states, strategy);
    // A position still open on its symbol's last bar is closed at that close: the equity above marks it there, which
    // is what the sale gives without costs; with them, the equity is marked again after the sales.
    let costly = false;
    for (let i = 0; i < count; i++) {
      const s = states[i]!;
      if (!s.hasBarToday) continue;
      if (s.next === s.last && s.position !== null) costly = closePosition(book, s, strategy, s.close[s.next]!, 'end_of_period') || costly;
      s.next++;
    }
    if (costly) equity[k] = marked(book, states, strategy);
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
    costs_paid: { commission: book.commissionPaid, slippage: book.slippagePaid },
  };
}

/** The cash plus every open position at its last close (long), less every short at its last close. */
function marked(book: Book, states: readonly SymbolState[], strategy: ReplayStrategy): number {
  let value = book.cash;
  for (let i = 0; i < states.length; i++) {
    const s = states[i]!;
    if (s.position === null) continue;
    const held = s.position.qty * lastClose(s);
    value += strategy.side === 'long' ? held : -held;
  }
  return value;
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
  const position = s.position;
  const long = strategy.side === 'long';
  if (long ? close > position.extreme : close < position.extreme) position.extreme = close;
  const code = ExecutionModel.exitOnClose(long, position.entryPrice, position.extreme, close, strategy.stopLossPct, strategy.trailingStopPct, strategy.profitTargetPct);
  if (code !== SIGNAL) return EXIT_REASON_OF[code]!;
  if (exit !== null && exit[t] === 1) return 'exit_rule';
  return null;
}

/** The library's names of the execution model's exit codes (a template's take_profit is a strategy's profit_target). */
const EXIT_REASON_OF: Readonly<Record<number, ExitReason>> = { [STOP_LOSS]: 'stop_loss', [TRAILING_STOP]: 'trailing_stop', [TAKE_PROFIT]: 'profit_target' };

/**
 * Fills an entry at this bar's open through the execution model (a long entry is a buy, a short entry a sell, each
 * slipped within the bar): the sizing's shares within a budget of at most min(max position size, free cash), free
 * cash being the cash not held against open shorts (their sale proceeds and as much again); percent_of_equity takes
 * the equity at the signal's close. No trade when q is 0.
 */
function openPosition(book: Book, s: SymbolState, states: readonly SymbolState[], strategy: ReplayStrategy): void {
  const { model } = book;
  const bars = s.input.bars;
  const t = s.next;
  const open = bars.open[t]!;
  const long = strategy.side === 'long';
  const price = long ? model.buyPrice(open, bars.high, t) : model.sellPrice(open, bars.low, t);
  let freeCash = book.cash;
  // A short's proceeds stay held against it, and as much again of the strategy's own cash secures it (a fully
  // collateralized short), so N shorts cannot each use the whole capital.
  if (!long) for (const other of states) if (other.position) freeCash -= 2 * other.position.qty * other.position.entryPrice;
  const cash = Math.min(strategy.maxPositionSize ?? Infinity, freeCash);
  const qty = model.sharesToBuy(cash, book.equity[s.dayOfBar[t - 1]!]!, price);
  if (qty === 0) return;
  const commission = model.commission(qty, price);
  book.cash += long ? -(qty * price + commission) : qty * price - commission;
  paid(book, qty, price, open, commission);
  s.position = { qty, entryPrice: price, entryCommission: commission, entryDate: bars.dates[t]!, extreme: long ? -Infinity : Infinity };
}

/**
 * Closes the position at `reference` (this bar's open, or its close at the end): a long's exit is a sell, a short's
 * cover a buy, slipped within the bar. Returns whether the fill cost anything (slippage or commission).
 */
function closePosition(book: Book, s: SymbolState, strategy: ReplayStrategy, reference: number, reason: ExitReason): boolean {
  const { model } = book;
  const { qty, entryPrice, entryCommission, entryDate } = s.position!;
  const bars = s.input.bars;
  const long = strategy.side === 'long';
  const price = long ? model.sellPrice(reference, bars.low, s.next) : model.buyPrice(reference, bars.high, s.next);
  const commission = model.commission(qty, price);
  book.cash += long ? qty * price - commission : -(qty * price + commission);
  paid(book, qty, price, reference, commission);
  const commissions = entryCommission + commission;
  const pnl = (long ? qty * (price - entryPrice) : qty * (entryPrice - price)) - commissions;
  book.trades.push({
    symbol: s.input.symbol,
    side: strategy.side,
    entry_date: entryDate,
    entry_price: entryPrice,
    exit_date: bars.dates[s.next]!,
    exit_price: price,
    qty,
    pnl,
    return: positionReturn(long, qty, entryPrice, price, pnl, entryCommission, commissions),
    exit_reason: reason,
    commission: commissions,
  });
  s.position = null;
  return price !== reference || commission !== 0;
}

function paid(book: Book, qty: number, price: number, reference: number, commission: number): void {
  book.commissionPaid += commission;
  book.slippagePaid += Math.abs(price - reference) * qty;
}

/** Every statistic, each defined once in engine/metrics.ts (the options replay computes its own with this too). */
export function libraryStats(
  dates: readonly string[],
  equity: Float64Array,
  drawdowns: Float64Array,
  trades: readonly Pick<LibraryTrade, 'pnl' | 'entry_date' | 'exit_date'>[],
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
