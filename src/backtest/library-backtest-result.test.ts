import { describe, expect, it } from 'vitest';
import { loadSpxBars } from '../../test/fixtures/bar-series.js';
import { fractionArray, moneyArray, roundFraction, roundMoney } from '../engine/index.js';
import { replayStrategy } from '../engine/replay/replay.js';
import { libraryBacktestHead, libraryBacktestResult } from './library-backtest-result.js';

const spx = loadSpxBars();

describe('libraryBacktestResult', () => {
  // Every 37th close an entry, every 53rd an exit, with a stop and a target: many trades with long fractions.
  const entry = Uint8Array.from(spx.close, (_, i) => (i % 37 === 0 ? 1 : 0));
  const exit = Uint8Array.from(spx.close, (_, i) => (i % 53 === 0 ? 1 : 0));
  const replay = replayStrategy([{ symbol: 'SPX', bars: spx, entry, exit }], { side: 'long', maxPositionSize: 7_777.77, profitTargetPct: 0.07, stopLossPct: -0.05, trailingStopPct: null }, 12_345.67);
  const raw = structuredClone(replay);
  const result = libraryBacktestResult(42, replay);

  it('keeps the DESIGN field order and adds the strategy id', () => {
    expect(Object.keys(result)).toEqual(['strategy_id', 'start_date', 'end_date', 'starting_capital', 'final_capital', 'symbols', 'dates', 'equity_curve', 'drawdowns', 'trades', 'stats']);
    expect(Object.keys(result.stats)).toEqual(Object.keys(replay.stats));
    expect(result.strategy_id).toBe(42);
  });

  it('rounds money to the cent and fractions to 8 decimals; prices, quantities and counts as they are; the replay untouched', () => {
    expect(replay).toEqual(raw);
    expect(result.trades.length).toBeGreaterThan(20);
    expect(result.starting_capital).toBe(12_345.67);
    expect(result.final_capital).toBe(roundMoney(raw.final_capital));
    expect(result.equity_curve).toEqual(moneyArray(raw.equity_curve));
    expect(result.drawdowns).toEqual(fractionArray(raw.drawdowns));
    // Without execution settings named, no commission is listed (the body as before issue 25); with them, to the cent.
    const costed = libraryBacktestHead(42, replay, true).trades;
    result.trades.forEach((t, i) => {
      const { commission, ...r } = raw.trades[i]!;
      expect(t).toEqual({ ...r, pnl: roundMoney(r.pnl), return: roundFraction(r.return) });
      expect(costed[i]).toEqual({ ...t, commission: roundMoney(commission) });
    });
    const s = raw.stats;
    expect(result.stats).toEqual({
      total_return: roundFraction(s.total_return),
      annualized_return: roundFraction(s.annualized_return!),
      sharpe_ratio: roundFraction(s.sharpe_ratio!),
      sortino_ratio: roundFraction(s.sortino_ratio!),
      max_drawdown: roundFraction(s.max_drawdown),
      win_rate: roundFraction(s.win_rate!),
      profit_factor: roundFraction(s.profit_factor!),
      total_trades: s.total_trades,
      winning_trades: s.winning_trades,
      losing_trades: s.losing_trades,
      avg_profit: roundMoney(s.avg_profit!),
      avg_loss: roundMoney(s.avg_loss!),
      avg_holding_days: roundFraction(s.avg_holding_days!),
      exposure: roundFraction(s.exposure!),
    });
  });
});
