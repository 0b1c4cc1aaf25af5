import { describe, expect, it } from 'vitest';
import { DEFAULT_RUNS, DEFAULT_SEED, MAX_RUNS as SERVER_MAX_RUNS } from '../../backtest/monte-carlo.schema';
import { ApiError } from '../api';
import type { RoundTrip } from '../lab/round-trips';
import type { LibraryTrade, OptionsTrade } from '../library/types';
import { csvField, csvFileName, csvText, dailyEquityCsv } from './csv';
import { fanGeometry, niceTicks, type FanBox } from './fan-geometry';
import { checkMonteCarloInputs, DEFAULT_MONTE_CARLO_INPUTS, MAX_RUNS, monteCarloErrors, monteCarloRequest } from './monte-carlo-inputs';
import { heatCell, monthlyGrid, monthlyScale, readableOn } from './monthly-grid';
import { histogramBars, presentPoints } from './report-series';
import { fanSentence, lossSentence, monthText, streakText } from './report-words';
import { labTradesCsv, libraryTradesCsv, optionsTradesCsv } from './trades-csv';

describe('CSV (RFC 4180)', () => {
  it('quotes a field only when it holds a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvField('SPX')).toBe('SPX');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(-0.0123)).toBe('-0.0123');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('writes a header and one CRLF-ended line per row', () => {
    expect(csvText(['a', 'b'], [[1, 'x,y'], [null, 2]])).toBe('a,b\r\n1,"x,y"\r\n,2\r\n');
  });

  it('writes the daily equity with plain dates', () => {
    const csv = dailyEquityCsv({ dates: ['2020-01-02', '2020-01-03T00:00:00.000Z'], equity_curve: [10000, 9950.5], drawdowns: [0, -0.00495] });
    expect(csv).toBe('date,equity,drawdown\r\n2020-01-02,10000,0\r\n2020-01-03,9950.5,-0.00495\r\n');
  });

  it('names the file after what was run and its period', () => {
    expect(csvFileName({ what: 'SPX SMA crossover', start: '2000-01-03T00:00:00.000Z', end: '2020-04-17', kind: 'trades' })).toBe(
      'tradelab-SPX-SMA-crossover-2000-01-03-to-2020-04-17-trades.csv',
    );
    expect(csvFileName({ what: 'My “best”/strategy: SPX, QQQ', start: '2020-01-01', end: '2020-12-31', kind: 'daily-equity' })).toBe(
      'tradelab-My-best-strategy-SPX-QQQ-2020-01-01-to-2020-12-31-daily-equity.csv',
    );
  });

  it('lists the lab’s round trips, a trade without an exit reason as a signal exit', () => {
    const trip: RoundTrip = { entry_date: '2020-01-02', entry_price: 100, exit_date: '2020-02-03', exit_price: 110.5, shares: 9, pnl: 94.5, return: 0.105, commission: 0, exit_reason: undefined, bars: 21 };
    expect(labTradesCsv([trip, { ...trip, exit_reason: 'stop_loss' }]).split('\r\n')).toEqual([
      'entry_date,entry_price,exit_date,exit_price,shares,pnl,return,commission,exit_reason,bars',
      '2020-01-02,100,2020-02-03,110.5,9,94.5,0.105,0,signal,21',
      '2020-01-02,100,2020-02-03,110.5,9,94.5,0.105,0,stop_loss,21',
      '',
    ]);
  });

  it('lists the library’s trades with their symbol and side', () => {
    const trade: LibraryTrade = { symbol: 'SPX', side: 'long', entry_date: '2020-01-02', entry_price: 100, exit_date: '2020-01-10', exit_price: 95, qty: 3, pnl: -15, return: -0.05, exit_reason: 'stop_loss', commission: 1 };
    expect(libraryTradesCsv([trade])).toBe(
      'symbol,side,entry_date,entry_price,exit_date,exit_price,qty,pnl,return,commission,exit_reason\r\nSPX,long,2020-01-02,100,2020-01-10,95,3,-15,-0.05,1,stop_loss\r\n',
    );
  });

  it('lists an options position as one row: its net credit, then its legs in one column', () => {
    const position: OptionsTrade = {
      symbol: 'SPX', side: 'short', entry_date: '2020-01-02', entry_price: 1.5, exit_date: '2020-01-30', exit_price: 0.4, qty: 2,
      pnl: 218, return: 0.0623, exit_reason: 'profit_target', commission: 2, credit: 1.5,
      legs: [
        { occ_symbol: 'SPX200221P03000000', right: 'put', strike: 3000, expiry: '2020-02-21', side: 'short', entry_price: 4.1, exit_price: 1.2 },
        { occ_symbol: 'SPX200221P02990000', right: 'put', strike: 2990, expiry: '2020-02-21', side: 'long', entry_price: 2.6, exit_price: 0.8 },
      ],
    };
    expect(optionsTradesCsv([position]).split('\r\n')).toEqual([
      'symbol,side,entry_date,entry_price,exit_date,exit_price,qty,pnl,return,commission,exit_reason,credit,legs',
      'SPX,short,2020-01-02,1.5,2020-01-30,0.4,2,218,0.0623,2,profit_target,1.5,short put 3000 2020-02-21 SPX200221P03000000 4.1 1.2; long put 2990 2020-02-21 SPX200221P02990000 2.6 0.8',
      '',
    ]);
  });
});

describe('the monthly returns grid', () => {
  const monthly = [
    { year: 2019, month: 11, return: 0.02 },
    { year: 2019, month: 12, return: -0.01 },
    { year: 2021, month: 1, return: 0.05 },
  ];
  const yearly = [
    { year: 2019, return: 0.0098 },
    { year: 2021, return: 0.05 },
  ];

  it('has a row per year from the first to the last, months outside the period empty', () => {
    const grid = monthlyGrid(monthly, yearly);
    expect(grid.map((row) => row.year)).toEqual([2019, 2020, 2021]);
    expect(grid[0]!.months).toEqual([null, null, null, null, null, null, null, null, null, null, 0.02, -0.01]);
    expect(grid[0]!.total).toBe(0.0098);
    expect(grid[1]!.months.every((value) => value === null)).toBe(true);
    expect(grid[1]!.total).toBeNull();
    expect(grid[2]!.months[0]).toBe(0.05);
    expect(monthlyGrid([], [])).toEqual([]);
  });

  it('colours from the worst month (dark) to the best (yellow), with readable text on each', () => {
    const scale = monthlyScale(monthly);
    expect(scale).toEqual({ min: -0.01, max: 0.05 });
    expect(heatCell(-0.01, scale)).toEqual({ background: 'rgb(68, 1, 84)', color: '#fff' });
    expect(heatCell(0.05, scale)).toEqual({ background: 'rgb(253, 231, 37)', color: '#000' });
    expect(heatCell(null, scale)).toBeUndefined();
    expect(readableOn('rgb(255, 255, 255)')).toBe('#000');
  });
});

describe('the fan chart', () => {
  const box: FanBox = { width: 110, height: 120, left: 10, right: 0, top: 10, bottom: 10 };

  it('draws the bands as closed areas and the lines over the trade numbers, scaled to the lowest and highest value', () => {
    const bands = { trade_numbers: [0, 1, 2], p5: [100, 50, 0], p25: [100, 80, 60], p50: [100, 100, 100], p75: [100, 120, 140], p95: [100, 150, 200], actual: [100, 110, 120] };
    const geometry = fanGeometry(bands, box);
    // x: 10 + trade × 50; y: 10 + (1 − v / 200) × 100.
    expect(geometry.outer).toBe('M10,60L60,85L110,110L110,10L60,35L10,60Z');
    expect(geometry.inner).toBe('M10,60L60,70L110,80L110,40L60,50L10,60Z');
    expect(geometry.median).toBe('M10,60L60,60L110,60');
    expect(geometry.actual).toBe('M10,60L60,55L110,50');
    expect(geometry.yTicks.map((tick) => tick.value)).toEqual([0, 50, 100, 150, 200]);
    expect(geometry.xTicks).toEqual([
      { value: 0, x: 10 },
      { value: 1, x: 60 },
      { value: 2, x: 110 },
    ]);
  });

  it('places points at their trade numbers when the answer thins them out', () => {
    // 200 trades drawn at 0, 100 and 200: x = 10 + trade / 2; ticks on round trade numbers.
    const flat = [100, 100, 100];
    const rising = [100, 150, 200];
    const geometry = fanGeometry({ trade_numbers: [0, 100, 200], p5: flat, p25: flat, p50: rising, p75: rising, p95: rising, actual: flat }, box);
    // y: 10 + (1 − (v − 100) / 100) × 100.
    expect(geometry.median).toBe('M10,110L60,60L110,10');
    expect(geometry.xTicks.map((tick) => [tick.value, tick.x])).toEqual([
      [0, 10],
      [50, 35],
      [100, 60],
      [150, 85],
      [200, 110],
    ]);
  });

  it('picks round ticks', () => {
    expect(niceTicks(9234, 15877, 4)).toEqual([10000, 12000, 14000]);
    expect(niceTicks(0, 0, 4)).toEqual([0]);
  });
});

describe('the report in words', () => {
  it('names a month with its return, and a streak', () => {
    expect(monthText({ year: 2009, month: 3, return: -0.1099 })).toBe('Mar 2009 (-10.99%)');
    expect(monthText(null)).toBe('—');
    expect(streakText(0)).toBe('No losing trade');
    expect(streakText(1)).toBe('1 losing trade in a row');
    expect(streakText(7)).toBe('7 losing trades in a row');
  });

  it('describes the fan chart, and says when every run ends alike (a shuffle)', () => {
    expect(fanSentence({ p5: 9000, p25: 12000, p50: 14000, p75: 17000, p95: 22000 }, 16402.86)).toBe(
      'Half of the runs ended between $12,000.00 and $17,000.00, nine in ten between $9,000.00 and $22,000.00. The actual order of the trades ended at $16,402.86.',
    );
    const same = 16402.86;
    expect(fanSentence({ p5: same, p25: same, p50: same, p75: same, p95: same }, same)).toMatch(/^Every run ended at \$16,402\.86: the same trades in another order/);
  });

  it('says the probability of loss with its odds', () => {
    expect(lossSentence(0.125, 1000)).toBe('12.50% of the 1,000 resampled runs (125) ended below the starting capital: about 1 in 8.');
    expect(lossSentence(0, 1000)).toBe('None of the 1,000 resampled runs ended below the starting capital.');
    expect(lossSentence(1, 200)).toBe('All 200 resampled runs ended below the starting capital.');
  });
});

describe('the Monte Carlo form', () => {
  it('checks runs and seed as the server bounds them', () => {
    expect(MAX_RUNS).toBe(SERVER_MAX_RUNS);
    expect(DEFAULT_MONTE_CARLO_INPUTS).toEqual({ runs: String(DEFAULT_RUNS), seed: String(DEFAULT_SEED), method: 'bootstrap' });
    expect(checkMonteCarloInputs(DEFAULT_MONTE_CARLO_INPUTS)).toEqual({});
    expect(checkMonteCarloInputs({ runs: '10000', seed: '-3', method: 'shuffle' })).toEqual({});
    expect(Object.keys(checkMonteCarloInputs({ runs: '10001', seed: '1.5', method: 'bootstrap' }))).toEqual(['runs', 'seed']);
    expect(Object.keys(checkMonteCarloInputs({ runs: '0', seed: '', method: 'bootstrap' }))).toEqual(['runs', 'seed']);
  });

  it('sends the backtest’s own request without `report`, with the settings as numbers', () => {
    const backtest = { symbol: 'SPX', strategy: 'sma_crossover', initial_capital: 10000, report: true };
    expect(monteCarloRequest(backtest, { runs: ' 500 ', seed: '7', method: 'shuffle' })).toEqual({ symbol: 'SPX', strategy: 'sma_crossover', initial_capital: 10000, runs: 500, seed: 7, method: 'shuffle' });
  });

  it('says a full queue is busy, and puts a refusal beside the field it names', () => {
    expect(monteCarloErrors(new ApiError(503, 'busy', 'Busy.')).form).toMatch(/busy .*Try again/);
    expect(monteCarloErrors(new ApiError(400, 'validation_error', 'runs must be at most 10000', [{ field: 'body.runs' }]))).toEqual({ fields: { runs: 'runs must be at most 10000' } });
    expect(monteCarloErrors(new ApiError(400, 'no_trades', 'No closed trades to resample.'))).toEqual({ fields: {}, form: 'No closed trades to resample.' });
  });
});

describe('the report’s series', () => {
  it('keeps only the days a rolling figure has a value', () => {
    expect(presentPoints(['d1', 'd2', 'd3', 'd4'], [null, 1.5, null, -0.2])).toEqual({ dates: ['d2', 'd4'], values: [1.5, -0.2] });
  });

  it('draws each bin as a bar against the fullest one', () => {
    const bars = histogramBars(
      [
        { from: -0.1, to: 0, count: 2 },
        { from: 0, to: 0.1, count: 4 },
      ],
      200,
      100,
    );
    expect(bars.map(({ x, width, y, height }) => [x, width, y, height])).toEqual([
      [0, 100, 50, 50],
      [100, 100, 0, 100],
    ]);
  });
});
