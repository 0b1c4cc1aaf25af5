/**
 * The account of a template backtest: one long position or none, its cash, and the costs paid, filled through the
 * execution model (model.ts). The generic path (simulate.ts) owns one, a fused pass's account is one
 * (fused/account.ts), a sweep cell owns one (sweep/rule-cell.ts): how a template decides differs between them, how
 * an order fills does not. A caller records the fill it just made from `price` and `commission`.
 */
import { ExecutionModel } from './model.js';
import type { CostsPaid } from './settings.js';

export class Ledger {
  readonly model: ExecutionModel;
  cash: number;
  shares = 0;
  /** The open position's entry fill price and commission. */
  entryPrice = 0;
  entryCommission = 0;
  /** The highest close since the entry, the entry bar's close included (the trailing stop's reference). */
  highestClose = -Infinity;
  /** The last fill's price and commission. */
  price = 0;
  commission = 0;
  /** Σ commissions and Σ |fill − reference| × shares so far. */
  commissionPaid = 0;
  slippagePaid = 0;
  /** Buys that found q = 0 (too little cash or budget for one share and its commission): not placed. */
  unfilled = 0;

  constructor(model: ExecutionModel, initialCapital: number) {
    this.model = model;
    this.cash = initialCapital;
  }

  /**
   * A buy on bar t at `open` (slipped up to at most highs[t]) of the shares the sizing takes. The account is flat, so
   * the equity at the signal's close is the cash. false, and nothing changes but `unfilled`, when q is 0.
   */
  buy(open: number, highs: Float64Array, t: number): boolean {
    const model = this.model;
    const price = model.buyPrice(open, highs, t);
    const shares = model.sharesToBuy(this.cash, this.cash, price);
    if (shares === 0) {
      this.unfilled++;
      return false;
    }
    const commission = model.commission(shares, price);
    this.cash -= shares * price + commission;
    this.shares = shares;
    this.entryPrice = price;
    this.entryCommission = commission;
    if (model.exits) this.highestClose = -Infinity;
    this.paid(shares, price, open, commission);
    return true;
  }

  /** Sells every share on bar t at `reference` (its open, or its close at the end), slipped down to at least lows[t]. */
  sell(reference: number, lows: Float64Array, t: number): void {
    const model = this.model;
    const shares = this.shares;
    const price = model.sellPrice(reference, lows, t);
    const commission = model.commission(shares, price);
    this.cash += shares * price - commission;
    this.shares = 0;
    this.paid(shares, price, reference, commission);
  }

  /** On a close while long: the exit that holds (execution/settings.ts codes; SIGNAL = none), after the close joins the highest. */
  exitOnClose(close: number): number {
    if (close > this.highestClose) this.highestClose = close;
    const m = this.model;
    return ExecutionModel.exitOnClose(true, this.entryPrice, this.highestClose, close, m.stopLoss, m.trailingStop, m.takeProfit);
  }

  costsPaid(): CostsPaid {
    return { commission: this.commissionPaid, slippage: this.slippagePaid };
  }

  private paid(shares: number, price: number, reference: number, commission: number): void {
    this.price = price;
    this.commission = commission;
    if (!this.model.costly) return; // both sums stay 0: nothing to add on a free fill
    this.commissionPaid += commission;
    this.slippagePaid += Math.abs(price - reference) * shares;
  }
}
