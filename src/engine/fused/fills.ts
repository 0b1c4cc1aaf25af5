/**
 * The fills of a fused run as columns (bar, price, shares, commission, exit reason), kept in typed arrays during the pass and turned into
 * trade objects only when something reads them: a BUY on even rows, its SELL on the next odd row. The round-trip
 * statistics are tallied from the columns, so a run whose trades are never read (a comparison) never builds them.
 */
import { dayNumbersOf, timestamp } from '../dates.js';
import { RoundTripTally, type TradeStatistics } from '../metrics.js';
import { buy, sellTrade } from '../simulate.js';
import { templatePnl } from '../execution/model.js';
import { EXIT_REASONS } from '../execution/settings.js';
import type { BacktestTrade } from '../types.js';

export class Fills {
  bar = new Int32Array(64);
  price = new Float64Array(64);
  shares = new Float64Array(64);
  commission = new Float64Array(64);
  /** A SELL row's exit reason (EXIT_REASONS index); 0 (signal) on BUY rows. */
  reason = new Uint8Array(64);
  count = 0;

  add(bar: number, price: number, shares: number, commission: number, reason: number): void {
    if (this.count === this.bar.length) this.grow();
    const row = this.count++;
    this.bar[row] = bar;
    this.price[row] = price;
    this.shares[row] = shares;
    this.commission[row] = commission;
    this.reason[row] = reason;
  }

  /** The statistics of tradeStatistics(trades()), from the columns: the same pnl and duration, in the same order. */
  statistics(dates: readonly string[]): TradeStatistics {
    const tally = new RoundTripTally();
    const { bar, price, shares, commission } = this;
    const days = dayNumbersOf(dates);
    for (let sold = 1; sold < this.count; sold += 2) {
      const pnl = templatePnl(shares[sold]!, price[sold - 1]!, price[sold]!, commission[sold - 1]! + commission[sold]!);
      tally.add(pnl, days.between(bar[sold - 1]!, bar[sold]!));
    }
    return tally.statistics();
  }

  /** The trades as simulate.ts builds them (buy, sell), in fill order. */
  trades(dates: readonly string[]): BacktestTrade[] {
    const { bar, price, shares, commission } = this;
    const days = dayNumbersOf(dates);
    const trades = new Array<BacktestTrade>(this.count);
    for (let row = 0; row < this.count; row++) {
      trades[row] =
        row % 2 === 0
          ? buy(dates[bar[row]!]!, price[row]!, shares[row]!, commission[row]!)
          : sellTrade(
              timestamp(dates[bar[row]!]!),
              price[row - 1]!,
              price[row]!,
              shares[row]!,
              days.between(bar[row - 1]!, bar[row]!),
              EXIT_REASONS[this.reason[row]!]!,
              commission[row - 1]!,
              commission[row]!,
            );
    }
    return trades;
  }

  private grow(): void {
    const size = this.bar.length * 2;
    const bar = new Int32Array(size);
    const price = new Float64Array(size);
    const shares = new Float64Array(size);
    const commission = new Float64Array(size);
    const reason = new Uint8Array(size);
    bar.set(this.bar);
    price.set(this.price);
    shares.set(this.shares);
    commission.set(this.commission);
    reason.set(this.reason);
    this.bar = bar;
    this.price = price;
    this.shares = shares;
    this.commission = commission;
    this.reason = reason;
  }
}
