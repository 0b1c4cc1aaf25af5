/**
 * The execution model, once for every backtest path (DESIGN.md "Execution model"; docs/backtesting.md "Costs, sizing
 * and exits"): the fill price within the bar, the commission of an order, how many shares a buy takes, the exits
 * checked on a close, and a closed position's pnl and return. The template ledger (ledger.ts: the generic path, the
 * fused passes, the sweep cells) and the library replay (replay/replay.ts) call these and nothing else for money.
 *
 * With FRICTIONLESS every function reduces to today's arithmetic, operation for operation: the fill is the reference
 * price itself (no cap, so even a stored open outside [low, high] fills at the open), the commission is 0, and
 * `x − 0`, `x + 0` leave every sum as it was.
 */
import { FRICTIONLESS, SIGNAL, STOP_LOSS, TAKE_PROFIT, TRAILING_STOP, type ExecutionSettings, type Sizing } from './settings.js';

const SIZING_MODES: readonly Sizing['mode'][] = ['all_in', 'percent_of_equity', 'fixed_amount', 'fixed_shares'];
const ALL_IN = 0;
const PERCENT_OF_EQUITY = 1;
const FIXED_AMOUNT = 2;

export class ExecutionModel {
  /** 1 + slippage_bps / 10⁴ and 1 − slippage_bps / 10⁴; both exactly 1 without slippage. */
  readonly up: number;
  readonly down: number;
  readonly slipped: boolean;
  readonly perShare: number;
  readonly pct: number;
  readonly minimum: number;
  /** Whether any commission term is nonzero (otherwise commission() is 0 without arithmetic). */
  readonly charges: boolean;
  /** Whether a fill can cost anything (slippage or commission). */
  readonly costly: boolean;
  readonly sizing: Sizing;
  /** The sizing as numbers, read on every buy: its mode's index in SIZING_MODES and its value. */
  readonly sizingMode: number;
  readonly sizingValue: number;
  readonly stopLoss: number | null;
  readonly takeProfit: number | null;
  readonly trailingStop: number | null;
  /** Whether any exit is set: a path that skips bars between signals cannot run then (run-template.ts). */
  readonly exits: boolean;

  constructor(settings: ExecutionSettings) {
    const { costs, sizing, exits } = settings;
    this.slipped = costs.slippage_bps > 0;
    this.up = 1 + costs.slippage_bps / 10_000;
    this.down = 1 - costs.slippage_bps / 10_000;
    this.perShare = costs.commission_per_share;
    this.pct = costs.commission_pct;
    this.minimum = costs.commission_min;
    this.charges = costs.commission_per_share > 0 || costs.commission_pct > 0 || costs.commission_min > 0;
    this.costly = this.charges || this.slipped;
    this.sizing = sizing;
    this.sizingMode = SIZING_MODES.indexOf(sizing.mode);
    this.sizingValue = sizing.mode === 'all_in' ? 1 : sizing.value;
    this.stopLoss = exits.stop_loss_pct;
    this.takeProfit = exits.take_profit_pct;
    this.trailingStop = exits.trailing_stop_pct;
    this.exits = exits.stop_loss_pct !== null || exits.take_profit_pct !== null || exits.trailing_stop_pct !== null;
  }

  /**
   * A buy's fill on bar t: min(highs[t], reference × (1 + bps / 10⁴)); the reference itself without slippage (no cap
   * then). The high is read only with slippage: a load the fused passes' loops otherwise paid on every fill (with
   * it inlined there, V8 compiled the macd pass at half speed; docs/benchmarks.md).
   */
  buyPrice(reference: number, highs: Float64Array, t: number): number {
    return this.slipped ? Math.min(highs[t]!, reference * this.up) : reference;
  }

  /** A sell's fill on bar t: max(lows[t], reference × (1 − bps / 10⁴)); the reference itself without slippage. */
  sellPrice(reference: number, lows: Float64Array, t: number): number {
    return this.slipped ? Math.max(lows[t]!, reference * this.down) : reference;
  }

  /** One order of `shares` at `price`: max(commission_min, per_share × shares + pct × shares × price). */
  commission(shares: number, price: number): number {
    if (!this.charges) return 0;
    return Math.max(this.minimum, this.perShare * shares + this.pct * shares * price);
  }

  /** What a buy of `shares` at `price` takes from the cash: shares × price + commission. */
  cost(shares: number, price: number): number {
    return shares * price + this.commission(shares, price);
  }

  /**
   * How many whole shares a buy at `price` takes: the sizing's budget (never above `cash`; `equity` is the equity
   * at the signal's close, for percent_of_equity), then the largest q whose cost fits it; fixed_shares takes its
   * value or as many as the cash affords. 0: no buy.
   */
  sharesToBuy(cash: number, equity: number, price: number): number {
    const mode = this.sizingMode;
    if (mode === ALL_IN) return this.sharesWithin(cash, price);
    if (mode === PERCENT_OF_EQUITY) return this.sharesWithin(Math.min(cash, this.sizingValue * equity), price);
    if (mode === FIXED_AMOUNT) return this.sharesWithin(Math.min(cash, this.sizingValue), price);
    return Math.min(this.sizingValue, this.sharesWithin(cash, price)); // fixed_shares
  }

  /**
   * The largest whole q with cost(q) ≤ budget, as cost() computes it (so the cash after the buy is never negative).
   * The quotient can round up to a whole number (3,047 / 1.1 is 2,770 in doubles, yet 2,770 × 1.1 > 3,047): without a
   * commission, one share less where the cost does not fit. With one, q starts at the smaller of the rate's and the
   * minimum's quotients, within one share of the answer either way, and takes one step down or up. 0 when not even one
   * share fits, or the price is not positive and finite. No loop: this is inlined into the fused passes' loops, where
   * an inner loop made V8 compile the whole pass slower (docs/benchmarks.md).
   */
  sharesWithin(budget: number, price: number): number {
    if (!(price > 0) || !(budget > 0)) return 0;
    let q: number;
    if (!this.charges) {
      q = Math.floor(budget / price);
      if (q * price > budget) q -= 1;
    } else {
      const byRate = budget / (price + this.perShare + this.pct * price);
      const byMinimum = (budget - this.minimum) / price;
      q = Math.max(0, Math.floor(Math.min(byRate, byMinimum)));
      if (q > 0 && this.cost(q, price) > budget) q -= 1;
      else if (this.cost(q + 1, price) <= budget) q += 1;
      if (q > 0 && this.cost(q, price) > budget) q -= 1;
    }
    return q >= 1 && Number.isFinite(q) ? q : 0;
  }

  /**
   * The first exit that holds on a close, long or short, compared as prices (entry × (1 + fraction), as a broker's
   * stop and limit orders are: replay/replay.ts explains why): stop loss, then trailing stop (from `extreme`, the
   * highest close since the entry, or for a short the lowest), then take profit. SIGNAL (0) when none holds.
   * `stop` < 0, `trailing` and `target` > 0; null = not set.
   */
  static exitOnClose(
    long: boolean,
    entry: number,
    extreme: number,
    close: number,
    stop: number | null,
    trailing: number | null,
    target: number | null,
  ): number {
    if (long) {
      if (stop !== null && close <= entry * (1 + stop)) return STOP_LOSS;
      if (trailing !== null && close <= extreme * (1 - trailing)) return TRAILING_STOP;
      if (target !== null && close >= entry * (1 + target)) return TAKE_PROFIT;
    } else {
      if (stop !== null && close >= entry * (1 - stop)) return STOP_LOSS;
      if (trailing !== null && close >= extreme * (1 + trailing)) return TRAILING_STOP;
      if (target !== null && close <= entry * (1 - target)) return TAKE_PROFIT;
    }
    return SIGNAL;
  }
}

/**
 * Whether a path that jumps from one signal that acts to the next (the fused passes' hold stretches, the sweep
 * cells' skip-ahead) computes this model's answer: not with an exit set, which must be checked on every close
 * while long. The one place this is decided: runTemplateBacktest and sweepCells route such runs to the generic
 * path, which checks every close (docs/backtesting.md "Which path runs which case"). Costs and sizing act only at
 * fills, which every path makes through the same model.
 */
export function skipsBarsSafely(model: ExecutionModel): boolean {
  return !model.exits;
}

/** The model of a backtest that names no execution setting. */
export const FRICTIONLESS_MODEL = new ExecutionModel(FRICTIONLESS);

/**
 * A closed long position of a template: pnl = q × exit − q × entry − both commissions (without commissions, exactly
 * the old q × exit − q × entry).
 */
export function templatePnl(shares: number, entry: number, exit: number, commissions: number): number {
  return shares * exit - shares * entry - commissions;
}

/**
 * A closed position's return: pnl / (entry × q + the entry's commission); without commissions the equal
 * exit / entry − 1 (short: (entry − exit) / entry), the operations it has always had.
 */
export function positionReturn(long: boolean, shares: number, entry: number, exit: number, pnl: number, entryCommission: number, commissions: number): number {
  if (commissions === 0) return long ? exit / entry - 1 : (entry - exit) / entry;
  return pnl / (entry * shares + entryCommission);
}
