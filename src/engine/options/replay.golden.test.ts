/**
 * Golden cases of the options replay on short hand-written series (docs/backtesting.md "Options backtests (modeled
 * prices)"). The volatility comes from a column (an imported index) held at one value, so σ is known; the model
 * prices beside each case were computed apart from this code (Python's statistics.NormalDist, the same formulas),
 * and every fill, credit, size and P&L from them by hand.
 *
 * The common setup: ABC at 100, σ 50 %, rate 0, a put credit spread 5 % out of the money ($95 short) and $5 wide ($90
 * long), dte 10. The signal on Mon 2024-01-01 opens on Tue 01-02's close; the expiry is the Friday on or before
 * 01-02 + 10 days = Fri 01-12. At the entry (T = 10/365): P95 = 1.316753, half its spread max(5 % × 1.316753, 0.05)
 * / 2 = 0.032919, sold at 1.283834 → $1.28 (rounded down); P90 = 0.378190 → bought at 0.378190 + 0.025 = 0.403190 →
 * $0.41 (rounded up). Credit $0.87 a share. Max loss per
 * contract (5 − 0.87) × 100 = $413; a $2,000 cap buys floor(2000 / 413) = 4 contracts, the cash gains $348.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goldenSeries } from '../../../test/fixtures/bar-series.js';
import { replayOptionsStrategy } from './replay.js';
import type { OptionsReplayStrategy, VerticalSpec } from './replay-types.js';

const DATES = ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-08', '2024-01-09', '2024-01-10', '2024-01-11', '2024-01-12', '2024-01-15'];
const PUT_CREDIT: VerticalSpec = { structure: 'put_credit', short_otm_pct: 0.05, width: 5, dte: 10 };
const STRATEGY: OptionsReplayStrategy = {
  type: 'vertical_spread',
  spec: PUT_CREDIT,
  maxPositionSize: 2000,
  creditMinAmount: null,
  profitTargetPct: null,
  stopLossPct: null,
  exitMaxDte: null,
};
const NO_FEES = { commissionPerContract: 0, rate: 0 };

/** ABC's closes on DATES (open = close), a volatility column at `sigma`, and the entry signal on the first close only. */
function run(closes: readonly number[], strategy: Partial<OptionsReplayStrategy> = {}, sigma = 0.5, dates = DATES) {
  const bars = goldenSeries(closes.map((close, i) => [dates[i]!, close, close] as const));
  const entry = Uint8Array.from(closes, (_, i) => (i === 0 ? 1 : 0));
  const input = { symbol: 'ABC', bars, entry, exit: null, volatility: new Float64Array(closes.length).fill(sigma), volatilitySymbol: 'VIX' };
  return replayOptionsStrategy(input, { ...STRATEGY, ...strategy }, NO_FEES, 10_000);
}

describe('a put credit spread held to expiry', () => {
  // Settles on Fri 01-12's close of 92: the short $95 put is worth 3.00, the long $90 put nothing.
  const closes = [100, 100, 98, 97, 96, 95, 94, 93, 92.5, 92, 95];

  it('settles at intrinsic value: pnl = (0.87 − 3.00) × 100 × 4 = −$852, return −852 / 1,652', () => {
    const replay = run(closes);
    expect(replay.trades).toEqual([
      {
        symbol: 'ABC', side: 'short', entry_date: '2024-01-02', entry_price: 0.87, exit_date: '2024-01-12', exit_price: 3,
        qty: 4, pnl: -852, return: -852 / 1652, exit_reason: 'expiry', commission: 0, credit: 0.87,
        legs: [
          { occ_symbol: 'ABC240112P00090000', right: 'put', strike: 90, expiry: '2024-01-12', side: 'long', entry_price: 0.41, exit_price: 0 },
          { occ_symbol: 'ABC240112P00095000', right: 'put', strike: 95, expiry: '2024-01-12', side: 'short', entry_price: 1.28, exit_price: 3 },
        ],
      },
    ]);
    expect(replay.final_capital).toBe(9148);
    expect(replay.equity_curve[0]).toBe(10_000);
    // Entry close: cash 10,348 less the spread marked at the model, (1.316753 − 0.378190) × 400 = 375.43.
    expect(replay.equity_curve[1]).toBeCloseTo(9972.57, 2);
    expect(replay.equity_curve.slice(9)).toEqual([9148, 9148]);
    expect(replay.pricing).toEqual({ model: 'black_scholes', volatility: 'VIX', spread: 'max(5 % of the model price, $0.05); a fill pays half', rate: 0 });
    expect(replay.costs_paid.commission).toBe(0);
    // Σ |fill − model| × 400 at the entry: (1.316753 − 1.28 + 0.41 − 0.378190) × 400 = 27.43; settlement pays none.
    expect(replay.costs_paid.slippage).toBeCloseTo(27.43, 2);
  });

  it('whatever the volatility: the legs settle at 3.00 and 0, and the cash moves by (credit − 3) × 100 × contracts', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.3, max: 1.5, noNaN: true }), (sigma) => {
        const replay = run(closes, {}, sigma);
        const [trade] = replay.trades;
        expect(trade!.legs.map((leg) => leg.exit_price)).toEqual([0, 3]);
        expect(trade!.pnl).toBeCloseTo((trade!.credit - 3) * 100 * trade!.qty, 9);
        expect(replay.final_capital).toBeCloseTo(10_000 + trade!.pnl, 9);
      }),
      { numRuns: 30 },
    );
  });

  it('settles on the expiry’s own bar when it is the last one; fees on the two opening fills only (settlement is no fill)', () => {
    const bars = goldenSeries(closes.slice(0, 10).map((c, i) => [DATES[i]!, c, c] as const));
    const input = { symbol: 'ABC', bars, entry: Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 0, 0, 0), exit: null, volatility: new Float64Array(10).fill(0.5), volatilitySymbol: 'VIX' };
    // One contract's maximum loss is now 413 + 2 fills × 2 legs × 0.65 = 415.60: the $2,000 cap buys 4, commission 2 × 4 × 0.65 = 5.20.
    const replay = replayOptionsStrategy(input, STRATEGY, { commissionPerContract: 0.65, rate: 0 }, 10_000);
    expect(replay.trades[0]).toMatchObject({ exit_date: '2024-01-12', exit_reason: 'expiry', qty: 4, commission: 5.2, pnl: -857.2 });
    expect(replay.final_capital).toBe(9142.8);
  });

  it('a commission per contract counts in the size: a $1,652 cap buys 4 contracts of $413 free, 3 at $0.65 a leg', () => {
    expect(run(closes, { maxPositionSize: 1652 }).trades[0]!.qty).toBe(4);
    const bars = goldenSeries(closes.map((c, i) => [DATES[i]!, c, c] as const));
    const input = { symbol: 'ABC', bars, entry: Uint8Array.from(closes, (_, i) => (i === 0 ? 1 : 0)), exit: null, volatility: new Float64Array(closes.length).fill(0.5), volatilitySymbol: 'VIX' };
    expect(replayOptionsStrategy(input, { ...STRATEGY, maxPositionSize: 1652 }, { commissionPerContract: 0.65, rate: 0 }, 10_000).trades[0]!.qty).toBe(3);
  });

  it('an expiry without a bar settles on the last close before it (Thu 01-11, 92.5: the short put worth 2.50)', () => {
    const dates = DATES.filter((d) => d !== '2024-01-12');
    const replay = run([100, 100, 98, 97, 96, 95, 94, 93, 92.5, 95], {}, 0.5, dates);
    expect(replay.trades[0]).toMatchObject({ exit_date: '2024-01-11', exit_price: 2.5, exit_reason: 'expiry', pnl: -652 });
  });
});

describe('exits decided on a close, filled at the next close with the half-spread', () => {
  it('profit target at half the credit: profit 0.149 on 01-03 (S 101) is short of 0.435, 0.810 on 01-04 (S 110) meets it', () => {
    // Filled Fri 01-05 at S 111, T 7/365: P95 = 0.030274 → bought at $0.06; P90 = 0.002387 → sold at $0. Debit $0.06.
    const replay = run([100, 100, 101, 110, 111, 111, 111, 111, 111, 111, 111], { profitTargetPct: 0.5 });
    expect(replay.trades).toHaveLength(1);
    expect(replay.trades[0]).toMatchObject({ exit_date: '2024-01-05', exit_price: 0.06, exit_reason: 'profit_target', pnl: 324 });
    expect(replay.trades[0]!.legs.map((leg) => leg.exit_price)).toEqual([0, 0.06]);
    expect(replay.final_capital).toBe(10_324);
  });

  it('stop loss at −100 % of the credit: profit −0.575 on 01-03 (S 97) holds, −1.277 on 01-04 (S 94) stops', () => {
    // Filled 01-05 at S 93, T 7/365: P95 = 3.717675 → bought at $3.82; P90 = 1.305095 → sold at $1.27. Debit $2.55.
    const replay = run([100, 100, 97, 94, 93, 93, 93, 93, 93, 93, 93], { stopLossPct: -1, profitTargetPct: 0.5 });
    expect(replay.trades[0]).toMatchObject({ exit_date: '2024-01-05', exit_price: 2.55, exit_reason: 'stop_loss', pnl: -672, return: -672 / 1652 });
    expect(replay.final_capital).toBe(9328);
  });

  it('exit_max_dte 7: Fri 01-05 is 7 days from the expiry, so the spread is closed on Mon 01-08', () => {
    // At S 100, T 4/365: P95 = 0.441428 → bought at $0.47; P90 = 0.040714 → sold at $0.01. Debit $0.46.
    const replay = run(Array(11).fill(100), { exitMaxDte: 7 });
    expect(replay.trades[0]).toMatchObject({ exit_date: '2024-01-08', exit_price: 0.46, exit_reason: 'max_dte', pnl: 164 });
  });

  it('exit_rule on a close; end_of_period at the last close when nothing else closes it', () => {
    const bars = goldenSeries(DATES.slice(0, 5).map((d) => [d, 100, 100] as const));
    // exit_rule also holds on the entry's own close (01-02), which is not checked: exits start on the next close.
    const input = { symbol: 'ABC', bars, entry: Uint8Array.of(1, 0, 0, 0, 0), exit: Uint8Array.of(0, 1, 1, 0, 0), volatility: new Float64Array(5).fill(0.5), volatilitySymbol: 'VIX' };
    expect(replayOptionsStrategy(input, STRATEGY, NO_FEES, 10_000).trades[0]).toMatchObject({ exit_date: '2024-01-04', exit_reason: 'exit_rule' });
    const held = replayOptionsStrategy({ ...input, exit: null }, STRATEGY, NO_FEES, 10_000);
    expect(held.trades[0]).toMatchObject({ exit_date: '2024-01-05', exit_reason: 'end_of_period' });
    expect(held.final_capital).toBe(10_000 + held.trades[0]!.pnl);
  });
});

describe('entries', () => {
  it('credit_min_amount: a credit of $0.87 is skipped under a $0.88 minimum and taken at $0.87', () => {
    const skipped = run(Array(11).fill(100), { creditMinAmount: 0.88 });
    expect(skipped.trades).toEqual([]);
    expect(skipped.skipped_entries).toEqual({ credit_below_minimum: 1, no_contract_affordable: 0, no_volatility: 0 });
    expect(skipped.equity_curve).toEqual(Array(11).fill(10_000));
    expect(run(Array(11).fill(100), { creditMinAmount: 0.87 }).trades).toHaveLength(1);
  });

  it('no contract affordable: a $412 cap is under one contract’s $413 maximum loss', () => {
    const replay = run(Array(11).fill(100), { maxPositionSize: 412 });
    expect(replay.trades).toEqual([]);
    expect(replay.skipped_entries).toEqual({ credit_below_minimum: 0, no_contract_affordable: 1, no_volatility: 0 });
  });

  it('realized_20d: no entry before the 21st close; then σ from the underlying’s own closes', () => {
    const n = 25;
    const dates = Array.from({ length: n }, (_, i) => `2024-02-${String(i + 1).padStart(2, '0')}`);
    const bars = goldenSeries(dates.map((d, i) => [d, 100 + 8 * (i % 2), 100 + 8 * (i % 2)] as const));
    const input = { symbol: 'ABC', bars, entry: new Uint8Array(n).fill(1), exit: null, volatility: null, volatilitySymbol: null };
    const replay = replayOptionsStrategy(input, { ...STRATEGY, maxPositionSize: null }, NO_FEES, 10_000);
    // Closes 0–20 make the first 20 returns: bar 20 is the first with a σ, so the first entry fills on its close.
    expect(replay.trades[0]?.entry_date).toBe(dates[20]);
    // The signals of closes 0–18 came when no σ was there to open with on the next close.
    expect(replay.skipped_entries).toEqual({ credit_below_minimum: 0, no_contract_affordable: 0, no_volatility: 19 });
    expect(replay.pricing.volatility).toBe('realized_20d');
  });
});

describe('an iron condor', () => {
  // SPX at 3000, σ 20 %, dte 45: entry Tue 2024-01-02, expiry Fri 2024-02-16 (T = 45/365).
  const dates = ['2024-01-01', '2024-01-02', '2024-01-03'];
  const input = (closes: readonly number[]) => ({
    symbol: 'SPX',
    bars: goldenSeries(closes.map((c, i) => [dates[i]!, c, c] as const)),
    entry: Uint8Array.of(1, 0, 0),
    exit: null,
    volatility: new Float64Array(closes.length).fill(0.2),
    volatilitySymbol: 'VIX',
  });
  const condor = (spec: OptionsReplayStrategy['spec']): OptionsReplayStrategy => ({ ...STRATEGY, type: 'iron_condor', spec, maxPositionSize: null });

  it('5 % out of the money, $50 wings: four legs on the $5 grid, their OCC symbols, the credit and fees to the cent', () => {
    // Models: P2800 17.524463 → bought $17.97; P2850 27.847166 → sold $27.15; C3150 31.107503 → sold $30.32;
    // C3200 21.092447 → bought $21.62. Credit 27.15 + 30.32 − 17.97 − 21.62 = $17.88. Max loss per contract
    // (50 − 17.88) × 100 + 2 × 4 × $0.65 = $3,217.20 (an opening and a closing commission): $10,000 buys 3; the entry’s commission 4 × 3 × 0.65 = $7.80.
    const replay = replayOptionsStrategy(input([3000, 3000, 3000]), condor({ short_otm_pct: 0.05, wing_width: 50, dte: 45 }), { commissionPerContract: 0.65, rate: 0 }, 10_000);
    const [trade] = replay.trades;
    expect(trade!.legs.map(({ occ_symbol, strike, side, entry_price }) => ({ occ_symbol, strike, side, entry_price }))).toEqual([
      { occ_symbol: 'SPX240216P02800000', strike: 2800, side: 'long', entry_price: 17.97 },
      { occ_symbol: 'SPX240216P02850000', strike: 2850, side: 'short', entry_price: 27.15 },
      { occ_symbol: 'SPX240216C03150000', strike: 3150, side: 'short', entry_price: 30.32 },
      { occ_symbol: 'SPX240216C03200000', strike: 3200, side: 'long', entry_price: 21.62 },
    ]);
    expect(trade).toMatchObject({ credit: 17.88, entry_price: 17.88, qty: 3, exit_reason: 'end_of_period', exit_date: '2024-01-03' });
    // Closed the next day with four more fills: 15.60 in commissions; the cash moves by whole cents only.
    expect(trade!.commission).toBe(15.6);
    const exitDebit = trade!.legs.reduce((sum, leg) => sum + (leg.side === 'short' ? leg.exit_price : -leg.exit_price), 0);
    expect(trade!.exit_price).toBeCloseTo(exitDebit, 10);
    expect(trade!.pnl).toBe(Math.round((17.88 - trade!.exit_price) * 300 * 100 - 1560) / 100);
    expect(replay.final_capital).toBe(10_000 + trade!.pnl);
    expect(trade!.return).toBeCloseTo(trade!.pnl / (3212 * 3 + 2 * 7.8), 12);
  });

  it('short delta 0.16: the put at 3000·e^(0.02 × 0.1233 − 0.99446 × 0.2 × √0.1233) = 2804.55 → 2805, the call 3224.94 → 3225', () => {
    const replay = replayOptionsStrategy(input([3000, 3000, 3000]), condor({ short_delta: 0.16, wing_width: 50, dte: 45 }), NO_FEES, 100_000);
    expect(replay.trades[0]!.legs.map((leg) => leg.occ_symbol)).toEqual(['SPX240216P02755000', 'SPX240216P02805000', 'SPX240216C03225000', 'SPX240216C03275000']);
  });
});
