/**
 * Per-symbol statistics of a library backtest's trade log, for the web app's table. Pure, no imports beyond
 * types: the browser bundle imports this file.
 */
import type { LibraryTrade } from './types.js';

export interface SymbolTradeStats {
  total_trades: number;
  /** pnl > 0 */
  winning_trades: number;
  /** pnl < 0 (a break-even trade is neither) */
  losing_trades: number;
  /** winning / total; null without trades. */
  win_rate: number | null;
  /** Σ pnl (currency). */
  pnl: number;
  /** Mean of the trades' `return`; null without trades. */
  avg_return: number | null;
}

/** The statistics of each symbol that has trades, keyed by symbol, in the trades' order of first appearance. */
export function statsBySymbol(trades: readonly Pick<LibraryTrade, 'symbol' | 'pnl' | 'return'>[]): Record<string, SymbolTradeStats> {
  const sums = new Map<string, { total: number; wins: number; losses: number; pnl: number; returns: number }>();
  for (const trade of trades) {
    let sum = sums.get(trade.symbol);
    if (!sum) {
      sum = { total: 0, wins: 0, losses: 0, pnl: 0, returns: 0 };
      sums.set(trade.symbol, sum);
    }
    sum.total++;
    if (trade.pnl > 0) sum.wins++;
    else if (trade.pnl < 0) sum.losses++;
    sum.pnl += trade.pnl;
    sum.returns += trade.return;
  }
  const result: Record<string, SymbolTradeStats> = {};
  for (const [symbol, sum] of sums) {
    result[symbol] = {
      total_trades: sum.total,
      winning_trades: sum.wins,
      losing_trades: sum.losses,
      win_rate: sum.total === 0 ? null : sum.wins / sum.total,
      pnl: sum.pnl,
      avg_return: sum.total === 0 ? null : sum.returns / sum.total,
    };
  }
  return result;
}
