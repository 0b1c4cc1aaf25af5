/**
 * The fills of a fused run as columns (bar, price, shares), kept in typed arrays during the pass and turned into
 * trade objects only when something reads them: a BUY on even rows, its SELL on the next odd row. The round-trip
 * statistics are tallied from the columns, so a run whose trades are never read (a comparison) never builds them.
 * A fill's commission is the model's of its shares and price, computed when read (one column less to fill and grow
 * in the pass); a fused run has no exits (run-template.ts), so each SELL is a signal's but a sale at the end.
 */
import { dayNumbersOf, timestamp } from '../dates.js';
import { templatePnl, type ExecutionModel } from '../execution/model.js';
import { RoundTripTally, type TradeStatistics } from '../metrics.js';
import { buy, sellTrade } from '../simulate.js';
import type { BacktestTrade } from '../types.js';

export class Fills {
  bar = new Int32Array(64);
  price = new Float64Array(64);
  shares = new Float64Array(64);
  count = 0;
  /** Whether the last SELL is the sale of the position still open at the end (end_of_period). */
  soldAtEnd = false;

  add(bar: number, price: number, shares: number): void {
    if (this.count === this.bar.length) this.grow();
    const row = this.count++;
    this.bar[row] = bar;
    this.price[row] = price;
    this.shares[row] = shares;
  }

  /** The statistics of tradeStatistics(trades()), from the columns: the same pnl and duration, in the same order. */
  statistics(dates: readonly string[], model: ExecutionModel): TradeStatistics {
    const tally = new RoundTripTally();
    const { bar, price, shares } = this;
    const days = dayNumbersOf(dates);
    for (let sold = 1; sold < this.count; sold += 2) {
      const held = shares[sold]!;
      const commissions = model.commission(held, price[sold - 1]!) + model.commission(held, price[sold]!);
      tally.add(templatePnl(held, price[sold - 1]!, price[sold]!, commissions), days.between(bar[sold - 1]!, bar[sold]!));
    }
    return tally.statistics();
  }

  /** The trades as simulate.ts builds them (buy, sellTrade), in fill order. */
  trades(dates: readonly string[], model: ExecutionModel): BacktestTrade[] {
    const { bar, price, shares } = this;
    const days = dayNumbersOf(dates);
    const trades = new Array<BacktestTrade>(this.count);
    for (let row = 0; row < this.count; row++) {
      const commission = model.commission(shares[row]!, price[row]!);
      if (row % 2 === 0) {
        trades[row] = buy(dates[bar[row]!]!, price[row]!, shares[row]!, commission);
        continue;
      }
      const reason = this.soldAtEnd && row === this.count - 1 ? 'end_of_period' : 'signal';
      const entryCommission = model.commission(shares[row - 1]!, price[row - 1]!);
      const duration = days.between(bar[row - 1]!, bar[row]!);
      trades[row] = sellTrade(timestamp(dates[bar[row]!]!), price[row - 1]!, price[row]!, shares[row]!, duration, reason, entryCommission, commission);
    }
    return trades;
  }

  private grow(): void {
    const size = this.bar.length * 2;
    const bar = new Int32Array(size);
    const price = new Float64Array(size);
    const shares = new Float64Array(size);
    bar.set(this.bar);
    price.set(this.price);
    shares.set(this.shares);
    this.bar = bar;
    this.price = price;
    this.shares = shares;
  }
}
