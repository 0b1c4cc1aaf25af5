/**
 * What the costs took in a library run (DESIGN.md "Execution model"): Σ of the trades' commissions (each trade
 * carries both its fills'), and the slippage Σ |fill − reference| × qty, the reference being the fill bar's open, or
 * its close for the sale at the end of the period. The replay reports its trades but not these sums (the template runs
 * report `costs_paid` themselves), so they are read back from the trades and the bars they filled on.
 */
import type { CostsPaid } from '../engine/execution/settings.js';
import type { LibraryTrade } from '../engine/replay/types.js';
import type { BarSeries } from '../engine/index.js';

export function libraryCostsPaid(trades: readonly LibraryTrade[], barsOf: (symbol: string) => BarSeries): CostsPaid {
  const bars = new Map<string, { series: BarSeries; index: Map<string, number> }>();
  const barOf = (symbol: string, date: string) => {
    let known = bars.get(symbol);
    if (known === undefined) {
      const series = barsOf(symbol);
      known = { series, index: new Map(series.dates.map((d, i) => [d, i])) };
      bars.set(symbol, known);
    }
    return { series: known.series, t: known.index.get(date)! };
  };
  let commission = 0;
  let slippage = 0;
  for (const trade of trades) {
    commission += trade.commission;
    const entry = barOf(trade.symbol, trade.entry_date);
    const exit = barOf(trade.symbol, trade.exit_date);
    const exitReference = trade.exit_reason === 'end_of_period' ? exit.series.close[exit.t]! : exit.series.open[exit.t]!;
    slippage += Math.abs(trade.entry_price - entry.series.open[entry.t]!) * trade.qty + Math.abs(trade.exit_price - exitReference) * trade.qty;
  }
  return { commission, slippage };
}
