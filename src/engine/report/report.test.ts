import { describe, expect, it } from 'vitest';
import { backtestReport, drawdownPeriods, longestLosingStreak, rollingFigures, timeInMarket, tradeReturnBins, worstDrawdowns } from './index.js';

// A hand-made run: a year end, a fall and recovery in January–February, a fall not recovered in March.
const DATES = ['2023-12-29', '2024-01-15', '2024-01-16', '2024-01-31', '2024-02-01', '2024-02-02', '2024-02-15', '2024-02-29', '2024-03-01', '2024-03-28'];
const EQUITY = new Float64Array([100, 110, 110, 99, 88, 88, 110, 121, 99, 108.9]);
const INITIAL = 95;

describe('backtestReport', () => {
  const report = backtestReport({ dates: DATES, equity: EQUITY, initialCapital: INITIAL, trades: [] });

  it('answers each month ending equity over the previous month ending equity, the first over the initial capital', () => {
    expect(report.monthly_returns).toEqual([
      { year: 2023, month: 12, return: 100 / 95 - 1 },
      { year: 2024, month: 1, return: 99 / 100 - 1 },
      { year: 2024, month: 2, return: 121 / 99 - 1 },
      { year: 2024, month: 3, return: 108.9 / 121 - 1 },
    ]);
    expect(report.yearly_returns).toEqual([
      { year: 2023, return: 100 / 95 - 1 },
      { year: 2024, return: 108.9 / 100 - 1 },
    ]);
  });

  it('a month after the equity reached 0 returns 0, not 0 / 0 (a run that lost everything still has a report)', () => {
    const ruined = backtestReport({ dates: ['2024-01-31', '2024-02-29', '2024-03-28'], equity: new Float64Array([50, 0, 0]), initialCapital: 100, trades: [] });
    expect(ruined.monthly_returns.map((m) => m.return)).toEqual([-0.5, -1, 0]);
    expect(ruined.yearly_returns).toEqual([{ year: 2024, return: -1 }]);
    expect(ruined.worst_month).toEqual({ year: 2024, month: 2, return: -1 });
  });

  it('compounds the monthly and the yearly returns to the total return', () => {
    const total = 108.9 / 95 - 1;
    const compound = (rs: { return: number }[]) => rs.reduce((g, r) => g * (1 + r.return), 1) - 1;
    expect(compound(report.monthly_returns)).toBeCloseTo(total, 14);
    expect(compound(report.yearly_returns)).toBeCloseTo(total, 14);
  });

  it('names the best and the worst month', () => {
    expect(report.best_month).toEqual({ year: 2024, month: 2, return: 121 / 99 - 1 });
    expect(report.worst_month).toEqual({ year: 2024, month: 3, return: 108.9 / 121 - 1 });
  });

  it('finds the drawdown periods: last day at the peak, first day at the low, first day back, or not recovered', () => {
    expect(report.worst_drawdowns).toEqual([
      { start: '2024-01-16', trough: '2024-02-01', end: '2024-02-15', depth: 88 / 110 - 1, days: 30 },
      { start: '2024-02-29', trough: '2024-03-01', end: null, depth: 99 / 121 - 1, days: 28 },
    ]);
  });

  it('has no rolling figures over a run shorter than the 126-day window, and no bins without trades', () => {
    expect(report.rolling).toEqual({ window_days: 126, dates: [], sharpe: [], volatility: [] });
    expect(report.trade_returns).toEqual({ bins: [] });
    expect(report.longest_losing_streak).toBe(0);
    expect(report.time_in_market).toBe(0);
  });
});

describe('worstDrawdowns', () => {
  it('keeps the five deepest periods, deepest first', () => {
    // Seven dips from 100, each back to 100: depths −1 % … −7 % in the order 3, 7, 1, 5, 2, 6, 4.
    const dips = [3, 7, 1, 5, 2, 6, 4];
    const equity = new Float64Array([100, ...dips.flatMap((d) => [100 - d, 100])]);
    const dates = Array.from(equity, (_, i) => `2024-01-${String(i + 1).padStart(2, '0')}`);
    expect(drawdownPeriods(dates, equity)).toHaveLength(7);
    expect(worstDrawdowns(dates, equity).map((p) => Math.round(-p.depth * 100))).toEqual([7, 6, 5, 4, 3]);
    expect(worstDrawdowns(dates, equity)[0]).toEqual({ start: '2024-01-03', trough: '2024-01-04', end: '2024-01-05', depth: 93 / 100 - 1, days: 2 });
  });
});

describe('rollingFigures', () => {
  it('computes the Sharpe ratio and the volatility over each window of daily returns', () => {
    const rolling = rollingFigures(['d0', 'd1', 'd2', 'd3'], new Float64Array([100, 110, 99, 99]), 2);
    expect(rolling.dates).toEqual(['d2', 'd3']);
    // d2: returns +10 %, −10 %: mean 0, sd √0.02. d3: −10 %, 0: mean −5 %, sd √0.005.
    expect(rolling.sharpe[0]).toBeCloseTo(0, 12);
    expect(rolling.volatility[0]).toBeCloseTo(Math.sqrt(0.02 * 252), 12);
    expect(rolling.sharpe[1]).toBeCloseTo((-0.05 / Math.sqrt(0.005)) * Math.sqrt(252), 12);
    expect(rolling.volatility[1]).toBeCloseTo(Math.sqrt(0.005 * 252), 12);
  });
});

describe('tradeReturnBins', () => {
  it('takes the first width of 0.1 %, 0.2 %, 0.5 %, … that covers the returns in at most 20 bins, edges on multiples', () => {
    const bins = tradeReturnBins([-0.034, -0.01, 0, 0.003, 0.02, 0.049]);
    expect(bins).toHaveLength(17); // 0.5 %: from −3.5 % to 5 %
    expect(bins[0]).toEqual({ from: -0.035, to: -0.03, count: 1 });
    expect(bins.filter((b) => b.count > 0)).toEqual([
      { from: -0.035, to: -0.03, count: 1 },
      { from: -0.01, to: -0.005, count: 1 },
      { from: 0, to: 0.005, count: 2 },
      { from: 0.02, to: 0.025, count: 1 },
      { from: 0.045, to: 0.05, count: 1 },
    ]);
  });

  it('puts a return on an edge in the bin that starts there', () => {
    const bins = tradeReturnBins([-0.5, 0.3, 0.7, 1.2]);
    expect(bins).toHaveLength(18); // 10 %: from −50 % to 130 %
    expect(bins.find((b) => b.from === 0.3)!.count).toBe(1);
    expect(bins.find((b) => b.from === 0.7)!.count).toBe(1);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(4);
  });
});

describe('trade figures', () => {
  const trade = (entry: string, exit: string, r: number) => ({ entry_date: entry, exit_date: exit, return: r });

  it('counts the longest run of losing trades in order of exit date; a break-even trade ends a run', () => {
    const trades = [
      trade('2024-01-01', '2024-01-09', -0.01), // exits after the next two
      trade('2024-01-01', '2024-01-02', 0.02),
      trade('2024-01-02', '2024-01-03', -0.01),
      trade('2024-01-09', '2024-01-10', -0.03),
      trade('2024-01-10', '2024-01-11', 0),
      trade('2024-01-11', '2024-01-12', -0.02),
    ];
    expect(longestLosingStreak(trades)).toBe(3);
  });

  it('counts a date in the market from the entry date up to the exit date, overlapping trades once', () => {
    const dates = ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05'];
    expect(timeInMarket(dates, [trade('2024-01-02', '2024-01-04', 0.1), trade('2024-01-03', '2024-01-05', 0.1)])).toBe(3 / 5);
  });
});
