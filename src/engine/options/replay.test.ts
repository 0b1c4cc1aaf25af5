import fc from 'fast-check';
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

describe('no look-ahead', () => {
  it('new closes after a date change no trade closed by it and no equity point up to it', () => {
    const spx = loadSpxBars();
    const n = 400;
    const bars = { dates: spx.dates.slice(0, n), open: spx.open.slice(0, n), high: spx.high.slice(0, n), low: spx.low.slice(0, n), close: spx.close.slice(0, n), volume: spx.volume.slice(0, n) };
    const settings = { commissionPerContract: 0.65, rate: 0.02 };
    const run = (close: Float64Array) =>
      replayOptionsStrategy({ symbol: 'SPX', bars: { ...bars, close }, entry: null, exit: null, volatility: null, volatilitySymbol: null }, { ...CONDOR, maxPositionSize: null }, settings, 100_000);
    const base = run(bars.close);
    fc.assert(
      fc.property(fc.integer({ min: 21, max: n - 2 }), fc.double({ min: 0.7, max: 1.3, noNaN: true }), (cut, factor) => {
        const changed = bars.close.map((c, i) => (i > cut ? c * factor : c));
        const replay = run(changed);
        expect(replay.equity_curve.slice(0, cut + 1)).toEqual(base.equity_curve.slice(0, cut + 1));
        const closedBy = (trades: typeof base.trades) => trades.filter((t) => t.exit_date <= bars.dates[cut]!);
        expect(closedBy(replay.trades)).toEqual(closedBy(base.trades));
      }),
      { numRuns: 25 },
    );
  });
});
