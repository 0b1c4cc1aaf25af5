import { describe, expect, it } from 'vitest';
import { loadSpxBars } from '../../../test/fixtures/bar-series.js';
import { replayOptionsStrategy } from './replay.js';
import type { OptionsReplayStrategy } from './replay-types.js';

const CONDOR: OptionsReplayStrategy = {
  type: 'iron_condor',
  spec: { short_delta: 0.16, wing_width: 50, dte: 45 },
  maxPositionSize: 10_000,
  creditMinAmount: null,
  profitTargetPct: 0.5,
  stopLossPct: -1,
  exitMaxDte: 21,
};

describe('replayOptionsStrategy over 20 years of SPX (iron condors whenever flat, $0.65 a contract)', () => {
  const bars = loadSpxBars();
  const replay = replayOptionsStrategy({ symbol: 'SPX', bars, entry: null, exit: null, volatility: null, volatilitySymbol: null }, CONDOR, { commissionPerContract: 0.65, rate: 0 }, 100_000);
  const cents = (x: number) => Math.round(x * 100);

  it('keeps the cash exact to the cent after fees over hundreds of trades: start + Σ pnl, to the bit', () => {
    expect(replay.trades.length).toBeGreaterThan(300);
    const pnlCents = replay.trades.reduce((sum, t) => sum + cents(t.pnl), 0);
    // Flat at the end (end_of_period closes the last position), so the equity is the cash.
    expect(replay.final_capital).toBe((10_000_000 + pnlCents) / 100);
    expect(replay.costs_paid.commission).toBe(replay.trades.reduce((sum, t) => sum + cents(t.commission), 0) / 100);
  });

  it('every trade: pnl = (credit − exit debit) × 100 × contracts − commissions, the legs netting to the prices', () => {
    for (const t of replay.trades) {
      expect(cents(t.pnl)).toBe((cents(t.entry_price) - cents(t.exit_price)) * 100 * t.qty - cents(t.commission));
      const net = (key: 'entry_price' | 'exit_price') => t.legs.reduce((sum, leg) => sum + (leg.side === 'short' ? 1 : -1) * cents(leg[key]), 0);
      expect(net('entry_price')).toBe(cents(t.entry_price));
      expect(net('exit_price')).toBe(cents(t.exit_price));
      // Four legs a fill; settlement is no fill.
      expect(cents(t.commission)).toBe(cents((t.exit_reason === 'expiry' ? 4 : 8) * t.qty * 0.65));
    }
  });

  it('one position at a time, each opened after the previous one closed, none on the last bar', () => {
    for (let i = 1; i < replay.trades.length; i++) expect(replay.trades[i]!.entry_date > replay.trades[i - 1]!.exit_date).toBe(true);
    expect(replay.trades.at(-1)!.entry_date < bars.dates.at(-1)!).toBe(true);
    expect(replay.equity_curve).toHaveLength(bars.dates.length);
  });
});
