/**
 * The JSON body of POST /api/backtest/run ("Library backtest result"): the pure replay's result with the strategy
 * id, its numbers rounded at output (docs/backtesting.md "Output precision"): money to the cent, fractions and
 * ratios to 8 decimals, prices, quantities and counts as they are. The replay computes every statistic from
 * unrounded values; rounding belongs to output shaping, so src/engine stays as it is.
 */
import { fractionArray, moneyArray, roundFraction, roundFractionOrNull, roundMoney, roundMoneyOrNull } from '../engine/index.js';
import type { LibraryBacktestResult, LibraryReplay, LibraryStats, LibraryTrade } from '../engine/replay/types.js';
import type { BacktestExtras } from './execution-result.js';
import type { BacktestReport } from '../engine/report/index.js';

/** A trade as the body lists it: its `commission` only when the request named an execution setting. */
export type LibraryBodyTrade = Omit<LibraryTrade, 'commission'> & { commission?: number };

/** The body: the replay's result, and the `BacktestExtras` when the request named an execution setting. */
export interface LibraryBacktestBody extends Omit<LibraryBacktestResult, 'trades'>, Partial<BacktestExtras> {
  trades: LibraryBodyTrade[];
  /** Only with `report: true` (report-result.ts). */
  report?: BacktestReport;
}

export function libraryBacktestResult(strategyId: number, replay: LibraryReplay): LibraryBacktestBody {
  return {
    ...libraryBacktestHead(strategyId, replay),
    dates: replay.dates,
    equity_curve: moneyArray(replay.equity_curve),
    drawdowns: fractionArray(replay.drawdowns),
  };
}

/**
 * The result with its three bar-aligned arrays left empty: `backtestBodyBytes` writes them from the replay.
 * `costed`: the request named an execution setting, so each trade carries its commission.
 */
export function libraryBacktestHead(strategyId: number, replay: Omit<LibraryReplay, 'dates' | 'equity_curve' | 'drawdowns'>, costed = false): LibraryBacktestBody {
  return {
    strategy_id: strategyId,
    start_date: replay.start_date,
    end_date: replay.end_date,
    // As the request gave it (or the default): an echo of the input.
    starting_capital: replay.starting_capital,
    final_capital: roundMoney(replay.final_capital),
    symbols: replay.symbols,
    dates: [],
    equity_curve: [],
    drawdowns: [],
    trades: replay.trades.map((t) => roundedTrade(t, costed)),
    stats: roundedStats(replay.stats),
  };
}

function roundedTrade(t: LibraryTrade, costed: boolean): LibraryBodyTrade {
  const trade: LibraryBodyTrade = {
    symbol: t.symbol,
    side: t.side,
    entry_date: t.entry_date,
    entry_price: t.entry_price,
    exit_date: t.exit_date,
    exit_price: t.exit_price,
    qty: t.qty,
    pnl: roundMoney(t.pnl),
    return: roundFraction(t.return),
    exit_reason: t.exit_reason,
  };
  if (costed) trade.commission = roundMoney(t.commission);
  return trade;
}

function roundedStats(s: LibraryStats): LibraryStats {
  return {
    total_return: roundFraction(s.total_return),
    annualized_return: roundFractionOrNull(s.annualized_return),
    sharpe_ratio: roundFractionOrNull(s.sharpe_ratio),
    sortino_ratio: roundFractionOrNull(s.sortino_ratio),
    max_drawdown: roundFraction(s.max_drawdown),
    win_rate: roundFractionOrNull(s.win_rate),
    profit_factor: roundFractionOrNull(s.profit_factor),
    total_trades: s.total_trades,
    winning_trades: s.winning_trades,
    losing_trades: s.losing_trades,
    avg_profit: roundMoneyOrNull(s.avg_profit),
    avg_loss: roundMoneyOrNull(s.avg_loss),
    avg_holding_days: roundFractionOrNull(s.avg_holding_days),
    exposure: roundFractionOrNull(s.exposure),
  };
}
