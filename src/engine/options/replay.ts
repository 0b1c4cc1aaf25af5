/**
 * The options replay: an `iron_condor` or `vertical_spread` strategy over one underlying, its legs priced by
 * Black–Scholes on the underlying's close (no option quotes are stored), one position at a time. Pure and
 * deterministic. The rules' signals come in precomputed, as for the equity replay (engine/replay/replay.ts).
 *
 * Conventions (docs/backtesting.md "Options backtests (modeled prices)"): a signal on bar t's close opens at bar
 * t + 1's close (never on the last bar); on each later close, measured on the cost to close at model prices: stop
 * loss, then profit target (fractions of the credit), then exit_max_dte, then exit_rule, filled at the next close;
 * a position settles at intrinsic value on the close of the last bar on or before its expiry; one still open on
 * the last bar is closed there (end_of_period). Equity is the cash plus the position at model prices (no spread).
 */
import { dayNumbersOf, type DayNumbers } from '../dates.js';
import { plainArray } from '../plain-array.js';
import { libraryStats } from '../replay/replay.js';
import { drawdownCurve } from '../simulate.js';
import { realizedVolatility, yearsToExpiry } from './black-scholes.js';
import { SPREAD_WORDS } from './modeled-spread.js';
import { boundedFills, commissionCents, intrinsicCents, modelValue, type LegMarket, type OpenOptionsPosition } from './position.js';
import { cashOf, newBook, type OptionsBook } from './book.js';
import { openPosition } from './open-position.js';
import type { OptionsExitReason, OptionsReplay, OptionsReplayInput, OptionsReplaySettings, OptionsReplayStrategy } from './replay-types.js';
import { isCreditStructure } from './structure.js';

/**
 * Replays `strategy` on `input` from `startingCapital`. Requires at least one bar, signal and volatility columns as
 * long as the bars, a spec with exactly one strike target, and a positive finite capital (the service checks the
 * request first; a breach here is a programming error).
 */
export function replayOptionsStrategy(
  input: OptionsReplayInput,
  strategy: OptionsReplayStrategy,
  settings: OptionsReplaySettings,
  startingCapital: number,
): OptionsReplay {
  checkInputs(input, strategy, startingCapital);
  const { bars } = input;
  const close = bars.close;
  const n = bars.dates.length;
  const last = n - 1;
  const days = dayNumbersOf(bars.dates);
  const book = newBook(input, strategy, settings, isCreditStructure(strategy.type, strategy.spec), startingCapital);
  const equity = new Float64Array(n);
  const held = new Uint8Array(n);
  let position: OpenOptionsPosition | null = null;
  let pendingExit: OptionsExitReason | null = null;
  let pendingEntry = false;
  let volatility = NaN;

  for (let t = 0; t < n; t++) {
    const sigma = volatilityAt(input, t);
    if (sigma > 0) volatility = sigma;
    const market = (p: OpenOptionsPosition): LegMarket => ({ spot: close[t]!, volatility, years: yearsToExpiry(p.expiryDay - days.at(t)), rate: settings.rate });

    // The open position first: settled at its expiry, or closed by an exit decided on the last close, or at the end.
    if (position !== null) {
      if (t > position.entryBar && isSettlementBar(days, t, last, position.expiryDay)) {
        settle(book, position, t);
        position = null;
      } else if (pendingExit !== null || t === last) {
        closePosition(book, position, t, market(position), pendingExit ?? 'end_of_period');
        position = null;
      }
    }
    pendingExit = null;
    if (pendingEntry && position === null) {
      if (sigma > 0) position = openPosition(book, t, sigma, days);
      // realized_20d before its 21st close, or a volatility symbol before its first bar: nothing to price with.
      else book.skipped.no_volatility++;
    }
    pendingEntry = false;

    if (position !== null) {
      const value = modelValue(position.legs, market(position));
      if (t > position.entryBar && t < last) pendingExit = exitOnClose(book, position, t, value, days);
      equity[t] = cashOf(book) + value * 100 * position.contracts;
      held[t] = 1;
    } else {
      // An entry decided on this close opens on the next one, which must not be the last bar.
      if (t < last - 1) pendingEntry = input.entry === null ? true : input.entry[t] === 1;
      equity[t] = cashOf(book);
    }
  }

  const drawdowns = drawdownCurve(equity);
  const { trades } = book;
  return {
    start_date: bars.dates[0]!,
    end_date: bars.dates[last]!,
    starting_capital: startingCapital,
    final_capital: equity[last]!,
    symbols: [input.symbol],
    dates: bars.dates.slice(),
    equity_curve: plainArray(equity),
    drawdowns: plainArray(drawdowns),
    trades,
    stats: libraryStats(bars.dates, equity, drawdowns, trades, held, startingCapital),
    pricing: { model: 'black_scholes', volatility: input.volatilitySymbol ?? 'realized_20d', spread: SPREAD_WORDS, rate: settings.rate },
    costs_paid: { commission: book.commissionCents / 100, slippage: book.spreadPaid },
    skipped_entries: { ...book.skipped },
  };
}

/** σ on bar t: the volatility column's, or realized_20d from the closes up to t; NaN when there is none yet. */
function volatilityAt(input: OptionsReplayInput, t: number): number {
  if (input.volatility !== null) return input.volatility[t]!;
  return realizedVolatility(input.bars.close, t + 1) ?? NaN;
}

/**
 * Whether bar t is the one the position settles on: the last bar on or before its expiry date (the expiry itself
 * when it has a bar), or a bar past the expiry (only when the expiry fell before the bar after the entry). A last
 * bar before the expiry is not: the position is closed there at model prices instead (end_of_period).
 */
function isSettlementBar(days: DayNumbers, t: number, last: number, expiry: number): boolean {
  if (days.at(t) >= expiry) return true;
  return t < last && days.at(t + 1) > expiry;
}

/**
 * On a close after the entry's: the exit to fill at the next close, or null. `value` is the position's value a share at
 * this close's model prices (Σ sign × price). Profit = credit − cost to close = credit + value (a debit structure's credit is negative and its cost to close is minus its value); the stop loss
 * (a fraction < 0) and the profit target (> 0) are fractions of |credit|.
 */
function exitOnClose(book: OptionsBook, position: OpenOptionsPosition, t: number, value: number, days: DayNumbers): OptionsExitReason | null {
  const { strategy, input } = book;
  const credit = position.creditCents / 100;
  const profit = credit + value;
  const premium = Math.abs(credit);
  if (strategy.stopLossPct !== null && profit <= strategy.stopLossPct * premium) return 'stop_loss';
  if (strategy.profitTargetPct !== null && profit >= strategy.profitTargetPct * premium) return 'profit_target';
  if (strategy.exitMaxDte !== null && position.expiryDay - days.at(t) <= strategy.exitMaxDte) return 'max_dte';
  if (input.exit !== null && input.exit[t] === 1) return 'exit_rule';
  return null;
}

/** Closes every leg at this close's model prices, each paying half its spread (never beyond the structure's worst value at expiry), and a commission. */
function closePosition(book: OptionsBook, position: OpenOptionsPosition, t: number, market: LegMarket, reason: OptionsExitReason): void {
  const fills = boundedFills(position.legs, market, -1, position.payoffBounds);
  const commission = commissionCents(position.legs.length, position.contracts, book.settings.commissionPerContract);
  book.spreadPaid += fills.spreadPerShare * 100 * position.contracts;
  record(book, position, t, fills.cents, fills.netCents, commission, reason);
}

/** Settles every leg at its intrinsic value from this close: no spread, no commission. */
function settle(book: OptionsBook, position: OpenOptionsPosition, t: number): void {
  const spot = book.input.bars.close[t]!;
  const cents = position.legs.map((leg) => intrinsicCents(leg.right, leg.strike, spot));
  const netCents = position.legs.reduce((sum, leg, i) => sum + leg.sign * cents[i]!, 0);
  record(book, position, t, cents, netCents, 0, 'expiry');
}

/** Books the exit: the legs' value as closed (Σ sign × price, cents a share) comes into the cash, less the commission. */
function record(book: OptionsBook, position: OpenOptionsPosition, t: number, exitCents: readonly number[], netCents: number, commission: number, reason: OptionsExitReason): void {
  const { contracts, creditCents } = position;
  book.cashChangeCents += netCents * 100 * contracts - commission;
  book.commissionCents += commission;
  const exitDebitCents = -netCents;
  const commissions = position.entryCommissionCents + commission;
  const pnlCents = (creditCents - exitDebitCents) * 100 * contracts - commissions;
  const { bars } = book.input;
  const sign = book.credit ? 1 : -1;
  book.trades.push({
    symbol: book.input.symbol,
    side: book.credit ? 'short' : 'long',
    entry_date: bars.dates[position.entryBar]!,
    entry_price: (sign * creditCents) / 100,
    exit_date: bars.dates[t]!,
    exit_price: (sign * exitDebitCents) / 100,
    qty: contracts,
    pnl: pnlCents / 100,
    return: pnlCents / position.maxLossCents,
    exit_reason: reason,
    commission: commissions / 100,
    credit: creditCents / 100,
    legs: position.legs.map((leg, i) => ({
      occ_symbol: leg.occ,
      right: leg.right,
      strike: leg.strike,
      expiry: position.expiry,
      side: leg.sign > 0 ? 'long' : 'short',
      entry_price: leg.entryCents / 100,
      exit_price: exitCents[i]! / 100,
    })),
  });
}

function checkInputs(input: OptionsReplayInput, strategy: OptionsReplayStrategy, startingCapital: number): void {
  const n = input.bars.dates.length;
  if (n === 0) throw new RangeError(`Symbol ${input.symbol} has no bars.`);
  if (!(startingCapital > 0 && Number.isFinite(startingCapital))) throw new RangeError('The starting capital must be a positive number.');
  for (const column of [input.entry, input.exit, input.volatility]) {
    if (column !== null && column.length !== n) throw new RangeError(`Signals of ${input.symbol} are not aligned with its bars.`);
  }
  const { spec } = strategy;
  if ((spec.short_delta === undefined) === (spec.short_otm_pct === undefined)) throw new RangeError('An options spec names exactly one of short_delta and short_otm_pct.');
  const width = 'wing_width' in spec ? spec.wing_width : spec.width;
  if (!(width > 0) || !(spec.dte >= 0)) throw new RangeError('An options spec needs a positive width and a dte of at least 0.');
}
