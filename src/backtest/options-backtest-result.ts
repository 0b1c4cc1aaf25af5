/**
 * The JSON body of POST /api/backtest/run for an options strategy: the equity replay's body (library-backtest-result.ts,
 * rounded the same way) plus `pricing`, `skipped_entries`, `costs_paid`, and each trade's `credit` and `legs`.
 * Legs' prices and credits are whole cents already (the replay keeps cash in cents); pnl, returns and stats are
 * rounded here, as the equity replay's.
 */
import { roundFraction, roundMoney } from '../engine/index.js';
import type { OptionLeg, OptionsExitReason, OptionsPricing, OptionsReplay, OptionsTrade } from '../engine/options/replay-types.js';
import type { CostsPaid } from '../engine/execution/settings.js';
import { libraryBacktestHead, type LibraryBacktestBody, type LibraryBodyTrade } from './library-backtest-result.js';
import { roundedCostsPaid } from './execution-result.js';

export type OptionsBodyTrade = Omit<LibraryBodyTrade, 'exit_reason'> & { exit_reason: OptionsExitReason; credit: number; legs: OptionLeg[] };

export interface OptionsBacktestBody extends Omit<LibraryBacktestBody, 'trades'> {
  trades: OptionsBodyTrade[];
  pricing: OptionsPricing;
  skipped_entries: OptionsReplay['skipped_entries'];
  costs_paid: CostsPaid;
}

/** The body with its three bar-aligned arrays left empty (backtestBodyBytes writes them). */
export function optionsBacktestHead(strategyId: number, replay: OptionsReplay, costed: boolean): OptionsBacktestBody {
  return {
    ...libraryBacktestHead(strategyId, { ...replay, trades: [] }, costed),
    trades: replay.trades.map((t) => roundedOptionsTrade(t, costed)),
    pricing: replay.pricing,
    skipped_entries: replay.skipped_entries,
    costs_paid: roundedCostsPaid(replay.costs_paid),
  };
}

function roundedOptionsTrade(t: OptionsTrade, costed: boolean): OptionsBodyTrade {
  const trade: OptionsBodyTrade = {
    symbol: t.symbol,
    side: t.side,
    entry_date: t.entry_date,
    entry_price: roundMoney(t.entry_price),
    exit_date: t.exit_date,
    exit_price: roundMoney(t.exit_price),
    qty: t.qty,
    pnl: roundMoney(t.pnl),
    return: roundFraction(t.return),
    exit_reason: t.exit_reason,
    credit: roundMoney(t.credit),
    legs: t.legs.map((leg) => ({ ...leg, entry_price: roundMoney(leg.entry_price), exit_price: roundMoney(leg.exit_price) })),
  };
  if (costed) trade.commission = roundMoney(t.commission);
  return trade;
}
