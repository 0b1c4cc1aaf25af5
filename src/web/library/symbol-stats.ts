/**
 * PROVISIONAL: the per-symbol statistics of a library backtest. The plan puts this pure helper in
 * src/backtest/library/trade-stats.ts (the library-backtest branch); until that is on main this local copy
 * with the same signature stands in, and at merge this file becomes
 * `export { statsBySymbol, type SymbolStats } from '../../backtest/library/trade-stats';`.
 */
import type { LibraryTrade } from './types';

export interface SymbolStats {
  readonly total_trades: number;
  readonly winning_trades: number;
  readonly losing_trades: number;
  /** Winning ÷ all round trips; null without trades. */
  readonly win_rate: number | null;
  /** Sum of P&L in dollars. */
  readonly pnl: number;
  /** Mean return per round trip (decimal fraction); null without trades. */
  readonly avg_return: number | null;
}

export function statsBySymbol(trades: readonly LibraryTrade[]): Record<string, SymbolStats> {
  const grouped = new Map<string, LibraryTrade[]>();
  for (const trade of trades) grouped.set(trade.symbol, [...(grouped.get(trade.symbol) ?? []), trade]);
  const stats: Record<string, SymbolStats> = {};
  for (const [symbol, list] of grouped) {
    const winning = list.filter((trade) => trade.pnl > 0).length;
    const losing = list.filter((trade) => trade.pnl < 0).length;
    stats[symbol] = {
      total_trades: list.length,
      winning_trades: winning,
      losing_trades: losing,
      win_rate: list.length > 0 ? winning / list.length : null,
      pnl: list.reduce((sum, trade) => sum + trade.pnl, 0),
      avg_return: list.length > 0 ? list.reduce((sum, trade) => sum + trade.return, 0) / list.length : null,
    };
  }
  return stats;
}
