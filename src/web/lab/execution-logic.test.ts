import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import {
  checkExecutionInputs,
  DEFAULT_EXECUTION_INPUTS,
  executionRequest,
  presetOf,
  readExecutionQuery,
  withPreset,
  writeExecutionQuery,
  type ExecutionInputs,
} from './execution-inputs';
import { formErrorsFromApi } from './form-errors';
import { labHref, labPrefill } from './lab-link';
import { DEFAULT_MARKET_INPUTS } from './market-inputs';
import { costsSentence, sizingSentence } from './execution-words';
import { buyAndHoldReturn, ranWithoutCosts, roundTrips, tradeSummary } from './round-trips';
import type { BacktestTrade } from './types';
import { SMA_TEMPLATE } from './template-fixtures';

const SMA = SMA_TEMPLATE;

describe('cost presets', () => {
  it('fill the four cost fields, and the fields name their preset back, else "custom"', () => {
    const perShare = withPreset(DEFAULT_EXECUTION_INPUTS, 'per_share');
    expect(perShare).toMatchObject({ commission_per_share: '0.005', commission_min: '1', commission_pct: '0', slippage_bps: '0' });
    expect(presetOf(perShare)).toBe('per_share');
    expect(presetOf(DEFAULT_EXECUTION_INPUTS)).toBe('none');
    expect(presetOf(withPreset(DEFAULT_EXECUTION_INPUTS, 'discount'))).toBe('discount');
    expect(presetOf({ ...withPreset(DEFAULT_EXECUTION_INPUTS, 'flat'), commission_min: '4.950' })).toBe('flat');
    expect(presetOf({ ...perShare, slippage_bps: '2' })).toBe('custom');
    expect(presetOf({ ...perShare, slippage_bps: '' })).toBe('custom');
    // An unknown preset changes nothing.
    expect(withPreset(perShare, 'custom')).toBe(perShare);
  });
});

describe('the execution request', () => {
  it('sends the defaults as no costs, all in, no exits, benchmarked on the symbol itself', () => {
    expect(executionRequest(DEFAULT_EXECUTION_INPUTS, ' spx ')).toEqual({
      costs: { commission_per_share: 0, commission_pct: 0, commission_min: 0, slippage_bps: 0 },
      sizing: { mode: 'all_in' },
      exits: { stop_loss_pct: null, take_profit_pct: null, trailing_stop_pct: null },
      benchmark: 'SPX',
    });
  });

  it('sends percents as fractions without binary noise, the stop loss below 0, and the sizing value by mode', () => {
    const inputs: ExecutionInputs = {
      ...DEFAULT_EXECUTION_INPUTS,
      commission_pct: '0.1',
      slippage_bps: '5',
      sizing_mode: 'percent_of_equity',
      sizing_value: '14.1',
      stop_loss_pct: '7',
      take_profit_pct: '20',
      trailing_stop_pct: '12.5',
      benchmark: 'spy',
    };
    expect(executionRequest(inputs, 'SPX')).toEqual({
      costs: { commission_per_share: 0, commission_pct: 0.001, commission_min: 0, slippage_bps: 5 },
      sizing: { mode: 'percent_of_equity', value: 0.141 },
      exits: { stop_loss_pct: -0.07, take_profit_pct: 0.2, trailing_stop_pct: 0.125 },
      benchmark: 'SPY',
    });
    expect(executionRequest({ ...inputs, sizing_mode: 'fixed_amount', sizing_value: '2500' }, 'SPX').sizing).toEqual({ mode: 'fixed_amount', value: 2500 });
    expect(executionRequest({ ...inputs, sizing_mode: 'fixed_shares', sizing_value: '10' }, 'SPX').sizing).toEqual({ mode: 'fixed_shares', value: 10 });
    expect(executionRequest({ ...inputs, sizing_mode: 'all_in', sizing_value: '10' }, 'SPX').sizing).toEqual({ mode: 'all_in' });
  });

  it('checks each field against the server’s bounds, the sizing value only where the mode uses it', () => {
    expect(checkExecutionInputs(DEFAULT_EXECUTION_INPUTS)).toEqual({});
    const errors = checkExecutionInputs({
      ...DEFAULT_EXECUTION_INPUTS,
      commission_per_share: '-1',
      commission_pct: '101',
      commission_min: '',
      slippage_bps: '1001',
      sizing_mode: 'percent_of_equity',
      sizing_value: '150',
      stop_loss_pct: '100',
      take_profit_pct: '0',
      trailing_stop_pct: 'x',
      benchmark: 'S P Y',
    });
    expect(Object.keys(errors).sort()).toEqual([
      'benchmark', 'commission_min', 'commission_pct', 'commission_per_share', 'sizing_value', 'slippage_bps', 'stop_loss_pct', 'take_profit_pct', 'trailing_stop_pct',
    ]);
    expect(checkExecutionInputs({ ...DEFAULT_EXECUTION_INPUTS, sizing_mode: 'fixed_shares', sizing_value: '2.5' })).toEqual({ sizing_value: 'Enter a whole number of shares, 1 or more.' });
    expect(checkExecutionInputs({ ...DEFAULT_EXECUTION_INPUTS, sizing_mode: 'all_in', sizing_value: 'junk' })).toEqual({});
  });

  it('places the server’s refusal of a nested setting beside its control', () => {
    const refusal = (field: string, code = 'validation_failed') => formErrorsFromApi(new ApiError(400, code, 'no', [{ field, message: 'x' }])).fields;
    expect(refusal('body.costs.slippage_bps')).toEqual({ slippage_bps: 'no' });
    expect(refusal('body.exits.trailing_stop_pct')).toEqual({ trailing_stop_pct: 'no' });
    expect(refusal('body.sizing.value')).toEqual({ sizing_value: 'no' });
    expect(refusal('body.sizing')).toEqual({ sizing_value: 'no' });
    // Without the symbol field's guidance: the benchmark field has no list to pick from.
    expect(refusal('body.benchmark', 'unknown_symbol')).toEqual({ benchmark: 'no' });
    expect(formErrorsFromApi(new ApiError(422, 'benchmark_too_short', 'short')).fields).toEqual({ benchmark: 'short' });
  });
});

describe('the lab address with costs', () => {
  const market = { ...DEFAULT_MARKET_INPUTS, start_date: '2010-01-04', end_date: '2015-12-31' };
  const execution: ExecutionInputs = {
    ...withPreset(DEFAULT_EXECUTION_INPUTS, 'per_share'),
    slippage_bps: '5',
    sizing_mode: 'fixed_amount',
    sizing_value: '2500',
    stop_loss_pct: '8',
    trailing_stop_pct: '15',
    benchmark: 'spy',
  };

  it('carries every setting that differs from the defaults, and reads back what it wrote', () => {
    const href = labHref({ market, strategy: 'sma_crossover', params: { fast_period: 20, slow_period: 50 }, execution });
    expect(href).toBe(
      '/?symbol=SPX&strategy=sma_crossover&start_date=2010-01-04&end_date=2015-12-31&initial_capital=10000&fast_period=20&slow_period=50' +
        '&commission_per_share=0.005&commission_min=1&slippage_bps=5&sizing=fixed_amount&sizing_value=2500&stop_loss=8&trailing_stop=15&benchmark=SPY',
    );
    const prefill = labPrefill(new URLSearchParams(href.slice(2)), [SMA])!;
    expect(prefill.execution).toEqual({ ...execution, benchmark: 'SPY' });
    expect(prefill.parameters).toEqual({ fast_period: '20', slow_period: '50' });
    expect(labHref({ market: prefill.market, strategy: 'sma_crossover', params: { fast_period: 20, slow_period: 50 }, execution: prefill.execution })).toBe(href);
  });

  it('writes nothing for the defaults, and reads the defaults for an address without settings or with a sizing mode it does not know', () => {
    const query = new URLSearchParams();
    writeExecutionQuery(query, { ...DEFAULT_EXECUTION_INPUTS, sizing_value: '99' });
    expect(query.toString()).toBe('');
    expect(readExecutionQuery(new URLSearchParams('sizing=everything&sizing_value=3'))).toEqual({ ...DEFAULT_EXECUTION_INPUTS, sizing_value: '3' });
    expect(labPrefill(new URLSearchParams('strategy=sma_crossover'), [SMA])!.execution).toEqual(DEFAULT_EXECUTION_INPUTS);
  });
});

/** A fill as the costed answer lists it. */
function fill(date: string, type: 'BUY' | 'SELL', price: number, shares: number, extra: Partial<BacktestTrade> = {}): BacktestTrade {
  return { date: `${date}T00:00:00.000Z`, type, price, shares, value: price * shares, pnl: null, return: null, duration: null, commission: 0, ...extra };
}

describe('round trips from the fills', () => {
  const dates = ['2020-01-02', '2020-01-03', '2020-01-06', '2020-01-07', '2020-01-08', '2020-01-09'];
  const trades: BacktestTrade[] = [
    fill('2020-01-02', 'BUY', 100, 10, { commission: 1 }),
    // (110 − 100) × 10 − 1 − 1 = 98; 98 / (1,000 + 1)
    fill('2020-01-06', 'SELL', 110, 10, { commission: 1, pnl: 98, return: 98 / 1001, duration: 4, exit_reason: 'take_profit' }),
    fill('2020-01-07', 'BUY', 105, 9, { commission: 1 }),
    // (100 − 105) × 9 − 2 = −47
    fill('2020-01-09', 'SELL', 100, 9, { commission: 1, pnl: -47, return: -47 / 946, duration: 2, exit_reason: 'stop_loss' }),
  ];

  it('pairs each buy with the sell after it: dates, prices, shares, P&L, return, both commissions, exit reason, bars held', () => {
    expect(roundTrips(trades, dates)).toEqual([
      { entry_date: '2020-01-02', entry_price: 100, exit_date: '2020-01-06', exit_price: 110, shares: 10, pnl: 98, return: 98 / 1001, commission: 2, exit_reason: 'take_profit', bars: 2 },
      { entry_date: '2020-01-07', entry_price: 105, exit_date: '2020-01-09', exit_price: 100, shares: 9, pnl: -47, return: -47 / 946, commission: 2, exit_reason: 'stop_loss', bars: 2 },
    ]);
  });

  it('leaves out a buy without its sell, and a run without execution settings has no exit reason or commission', () => {
    const free = trades.map(({ commission: _c, exit_reason: _r, ...rest }) => rest);
    const trips = roundTrips([...free, fill('2020-01-09', 'BUY', 100, 1)], dates);
    expect(trips).toHaveLength(2);
    expect(trips[0]).toMatchObject({ commission: 0, exit_reason: undefined });
  });

  it('sums gross profit and loss, the average trade, the largest win and loss and the bars held', () => {
    const trips = roundTrips(trades, dates);
    const summary = tradeSummary({ initial_capital: 1000, final_capital: 1051, equity_curve: [1000, 1010, 1098, 1090, 1060, 1051] }, trips);
    expect(summary).toMatchObject({ net_profit: 51, gross_profit: 98, gross_loss: -47, average_trade: 25.5, largest_win: 98, largest_loss: -47, average_bars: 2 });
    // The engine's own Sortino of the curve (src/engine/metrics.ts), not a second definition.
    expect(summary.sortino_ratio).toBeGreaterThan(0);
    expect(tradeSummary({ initial_capital: 1000, final_capital: 1000, equity_curve: [1000, 1000] }, [])).toEqual({
      net_profit: 0, gross_profit: 0, gross_loss: 0, average_trade: null, largest_win: null, largest_loss: null, average_bars: null, sortino_ratio: null,
    });
  });

  it('keeps sums to the cent: 0.1 + 0.2 is 0.3', () => {
    const cents = [fill('2020-01-02', 'BUY', 1, 1), fill('2020-01-03', 'SELL', 1, 1, { pnl: 0.1 }), fill('2020-01-06', 'BUY', 1, 1), fill('2020-01-07', 'SELL', 1, 1, { pnl: 0.2 })];
    expect(tradeSummary({ initial_capital: 1, final_capital: 1.3, equity_curve: [1, 1.3] }, roundTrips(cents, dates)).gross_profit).toBe(0.3);
  });

  it('reads buy and hold from the benchmark only when it is the symbol itself, and says when no costs ran', () => {
    const block = { symbol: 'SPX', total_return: 0.5, annualized_return: 0.1, max_drawdown: -0.2, sharpe_ratio: 1, equity_curve: [] };
    expect(buyAndHoldReturn({ symbol: 'SPX', benchmark: block })).toBe(0.5);
    expect(buyAndHoldReturn({ symbol: 'SPX', benchmark: { ...block, symbol: 'SPY' } })).toBeNull();
    expect(buyAndHoldReturn({ symbol: 'SPX' })).toBeNull();
    const none = { commission_per_share: 0, commission_pct: 0, commission_min: 0, slippage_bps: 0, commission_per_contract: 0 };
    expect(ranWithoutCosts({ costs: none })).toBe(true);
    expect(ranWithoutCosts({})).toBe(true);
    expect(ranWithoutCosts({ costs: { ...none, slippage_bps: 5 } })).toBe(false);
  });
});

describe('the settings in words', () => {
  const none = { commission_per_share: 0, commission_pct: 0, commission_min: 0, slippage_bps: 0, commission_per_contract: 0 };
  it('says "No costs assumed" plainly, and each cost that ran', () => {
    expect(costsSentence({ costs: none })).toBe('No costs assumed: every fill at the open, no commission, no slippage.');
    expect(costsSentence({})).toBe('No costs assumed: every fill at the open, no commission, no slippage.');
    expect(costsSentence({ costs: { ...none, commission_per_share: 0.005, commission_min: 1, slippage_bps: 5 } })).toBe('Costs assumed: $0.005 a share, at least $1.00 an order, 5 bp slippage.');
    expect(costsSentence({ costs: { ...none, commission_min: 4.95 } })).toBe('Costs assumed: $4.95 an order.');
    expect(costsSentence({ costs: { ...none, commission_pct: 0.001 } })).toBe('Costs assumed: 0.10% of each fill’s value.');
  });
  it('names the sizing and the exits', () => {
    const exits = { stop_loss_pct: -0.08, take_profit_pct: null, trailing_stop_pct: 0.15 };
    expect(sizingSentence({ sizing: { mode: 'fixed_amount', value: 2500 }, exits })).toBe('Sizing: $2,500.00 a trade. Exits: stop loss -8.00%, trailing stop 15.00%, then the strategy’s own.');
    expect(sizingSentence({})).toBe('Sizing: all in. Exits: the strategy’s own.');
  });
});
