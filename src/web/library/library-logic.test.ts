import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { ruleProblem } from '../../strategies/grammar/index';
import { checkTradeInputs, MAX_QTY, requestOf, type TradeInputs } from './trade-inputs';
import { decimalOf } from './decimal-text';
import { placeApiError } from './errors';
import { columnOf, lineAt } from './rule-editor';
import { MAX_QTY as SERVER_MAX_QTY } from '../../compliance/compliance.schema';
import { DESCRIPTION_MAX as SERVER_DESCRIPTION_MAX, MAX_DTE_LIMIT, NAME_MAX as SERVER_NAME_MAX } from '../../strategies/strategies.schema';
import { isTicker } from '../../market/market-terms';
import { checkStrategyInputs, createBody, DESCRIPTION_MAX, EMPTY_INPUTS, MAX_DTE, NAME_MAX, TICKER, fractionOf, inputsOf, normaliseSymbols, patchBody, percentOf, type StrategyInputs } from './strategy-inputs';
import type { StrategyView } from './types';

const SAVED: StrategyView = {
  id: 7,
  name: 'SPX trend',
  description: '',
  strategy_type: 'equity_long',
  is_active: true,
  entry_symbol_allowlist: 'SPX,QQQ',
  entry_max_position_size: 5000,
  entry_allowed_sides: 'buy',
  credit_min_amount: null,
  exit_profit_target_pct: 0.07,
  exit_stop_loss_pct: -0.1,
  exit_trailing_stop_pct: 0.15,
  exit_max_dte: null,
  entry_rule: 'close > sma(close, 10)',
  exit_rule: null,
  options_spec: null,
  volatility_symbol: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('strategy form values', () => {
  it('types percentages and stores fractions, without floating-point residue', () => {
    expect(percentOf(0.07)).toBe('7');
    expect(percentOf(0.2)).toBe('20');
    expect(fractionOf(7)).toBe(0.07);
    expect(fractionOf(33.3)).toBe(0.333);
    const inputs = inputsOf(SAVED);
    expect(inputs.exit_profit_target_pct).toBe('7');
    // The stop loss is typed as a positive loss.
    expect(inputs.exit_stop_loss_pct).toBe('10');
    // The trailing stop is typed as the percent below the highest close: 15 → 0.15.
    expect(inputs.exit_trailing_stop_pct).toBe('15');
    expect(createBody({ ...EMPTY_INPUTS, name: 'x', exit_trailing_stop_pct: '12.5' }).exit_trailing_stop_pct).toBe(0.125);
    expect(patchBody({ ...inputs, exit_trailing_stop_pct: '' }, SAVED)).toEqual({ exit_trailing_stop_pct: null });
  });

  it('normalises the allowlist as the server stores it: upper case, commas, no repeats', () => {
    expect(normaliseSymbols(' spx, qqq  SPX,,brk.b ')).toEqual(['SPX', 'QQQ', 'BRK.B']);
    expect(normaliseSymbols('  ')).toEqual([]);
  });

  it('creates with the fields that are set, and either sign of a stop loss means a loss', () => {
    const inputs: StrategyInputs = { ...EMPTY_INPUTS, name: ' Dip ', entry_symbol_allowlist: 'spx qqq', exit_profit_target_pct: '20', exit_stop_loss_pct: '-50', entry_rule: ' close < sma(close, 20)' };
    expect(createBody(inputs)).toEqual({
      name: 'Dip',
      description: '',
      strategy_type: 'equity_long',
      is_active: true,
      entry_symbol_allowlist: 'SPX,QQQ',
      exit_profit_target_pct: 0.2,
      exit_stop_loss_pct: -0.5,
      // As typed, so the server's column matches the editor's.
      entry_rule: ' close < sma(close, 20)',
    });
    expect(createBody({ ...inputs, exit_stop_loss_pct: '50' }).exit_stop_loss_pct).toBe(-0.5);
  });

  it('patches only what changed, with null clearing a field', () => {
    expect(patchBody(inputsOf(SAVED), SAVED)).toEqual({});
    const changed = { ...inputsOf(SAVED), entry_symbol_allowlist: '', exit_profit_target_pct: '8', entry_rule: '  ' };
    expect(patchBody(changed, SAVED)).toEqual({ entry_symbol_allowlist: null, exit_profit_target_pct: 0.08, entry_rule: null });
  });

  it('sends no field the person left alone, even when the form cannot show the stored value exactly', () => {
    // Stored through the API: a description with a trailing newline, a fraction with more digits than the form shows.
    const stored: StrategyView = { ...SAVED, description: 'Dip buyer\n', exit_profit_target_pct: 0.123456789012345, exit_stop_loss_pct: -0.0333333333333333 };
    expect(patchBody(inputsOf(stored), stored)).toEqual({});
    expect(patchBody({ ...inputsOf(stored), name: 'Renamed' }, stored)).toEqual({ name: 'Renamed' });
    // A field that is changed is still sent, and cleared as null.
    expect(patchBody({ ...inputsOf(stored), exit_profit_target_pct: '12', description: '' }, stored)).toEqual({ exit_profit_target_pct: 0.12, description: '' });
  });

  it('checks what it can before sending, keyed by the API field names', () => {
    const errors = checkStrategyInputs({
      ...EMPTY_INPUTS,
      entry_symbol_allowlist: 'SPX, 1ABC',
      entry_max_position_size: '0',
      exit_profit_target_pct: '1001',
      exit_stop_loss_pct: '150',
      exit_trailing_stop_pct: '100',
      exit_max_dte: '2.5',
    });
    expect(Object.keys(errors).sort()).toEqual(['entry_max_position_size', 'entry_symbol_allowlist', 'exit_max_dte', 'exit_profit_target_pct', 'exit_stop_loss_pct', 'exit_trailing_stop_pct', 'name']);
    expect(checkStrategyInputs({ ...EMPTY_INPUTS, name: 'x', exit_trailing_stop_pct: '0' }).exit_trailing_stop_pct).toBe('Enter a percentage above 0 and below 100, such as 10.');
    expect(errors.entry_symbol_allowlist).toContain('“1ABC”');
    expect(checkStrategyInputs({ ...EMPTY_INPUTS, name: 'x'.repeat(101) }).name).toBe('Use at most 100 characters.');
    expect(checkStrategyInputs({ ...inputsOf(SAVED) })).toEqual({});
  });

  it('refuses a rule with the grammar’s own message (the code the server runs)', () => {
    const rule = 'close > smaa(close, 10)';
    expect(checkStrategyInputs({ ...EMPTY_INPUTS, name: 'x', exit_rule: rule }).exit_rule).toBe(ruleProblem(rule)?.message);
  });
});

describe('the limits copied from the server', () => {
  it('match the schemas and the ticker pattern', () => {
    expect([NAME_MAX, DESCRIPTION_MAX, MAX_DTE, MAX_QTY]).toEqual([SERVER_NAME_MAX, SERVER_DESCRIPTION_MAX, MAX_DTE_LIMIT, SERVER_MAX_QTY]);
    for (const symbol of ['SPX', 'BRK.B', 'BF-B', '^GSPC', 'spx', '1ABC', 'A.', 'TOOLONGTICKER']) expect(TICKER.test(symbol), symbol).toBe(isTicker(symbol));
  });
});

describe('the rule editor caret', () => {
  it('finds the line and offset of a column counted over the whole text', () => {
    expect(lineAt('close > smaa(close, 10)', 9)).toEqual({ text: 'close > smaa(close, 10)', offset: 8 });
    expect(lineAt('close > 1 and\n\tfoo(1)', 16)).toEqual({ text: ' foo(1)', offset: 1 });
    // Past the end (an unexpected end of rule): the caret sits after the last character.
    expect(lineAt('close >', 8)).toEqual({ text: 'close >', offset: 7 });
  });

  it('reads the column a message starts with', () => {
    expect(columnOf('column 17: unknown function "smaa"')).toBe(17);
    expect(columnOf('Something else')).toBeUndefined();
  });
});

describe('API refusals beside their fields', () => {
  const controls = new Set(['entry_rule', 'symbols', 'legs', 'legs.1.symbol']);
  it('uses details[].field, trying shorter paths, then the code, then the form', () => {
    const refusal = (code: string, field?: string) => new ApiError(400, code, `msg ${code}`, field ? [{ field }] : []);
    expect(placeApiError(refusal('invalid_rule', 'body.entry_rule'), controls)).toEqual({ fields: { entry_rule: 'msg invalid_rule' } });
    expect(placeApiError(refusal('validation', 'body.symbols.2'), controls)).toEqual({ fields: { symbols: 'msg validation' } });
    expect(placeApiError(refusal('validation', 'body.legs.1.symbol'), controls)).toEqual({ fields: { 'legs.1.symbol': 'msg validation' } });
    expect(placeApiError(refusal('validation', 'body.legs.3.side'), controls)).toEqual({ fields: { legs: 'msg validation' } });
    expect(placeApiError(refusal('symbol_not_allowed'), controls, { symbol_not_allowed: 'symbols' })).toEqual({ fields: { symbols: 'msg symbol_not_allowed' } });
    expect(placeApiError(refusal('unsupported_strategy_type'), controls)).toEqual({ fields: {}, form: 'msg unsupported_strategy_type' });
    expect(placeApiError(new Error('boom'), controls)).toEqual({ fields: {}, form: 'boom' });
  });
});

describe('the trade check form', () => {
  const trade: TradeInputs = { strategy_id: '3', symbol: ' spy ', side: 'sell', qty: '2', price: '', order_type: 'market', legs: [{ symbol: 'SPY271217P00450000', side: 'sell' }, { symbol: ' ', side: 'buy' }] };
  it('sends legs only for an options strategy, and only the filled ones', () => {
    expect(requestOf(trade, true)).toEqual({ strategy_id: 3, symbol: 'SPY', qty: 2, side: 'sell', order_type: 'market', legs: [{ symbol: 'SPY271217P00450000', side: 'sell' }] });
    expect(requestOf({ ...trade, price: '1.5' }, false)).toEqual({ strategy_id: 3, symbol: 'SPY', qty: 2, side: 'sell', price: 1.5, order_type: 'market' });
  });
  it('checks quantity, price, a limit order’s price and OCC symbols', () => {
    expect(checkTradeInputs(trade, true)).toEqual({});
    expect(checkTradeInputs({ ...trade, qty: '0', order_type: 'limit', legs: [{ symbol: 'SPY', side: 'buy' }] }, true)).toEqual({
      qty: 'Enter a whole number of shares or contracts, 1 or more.',
      price: 'A limit order needs its limit price.',
      'legs.0.symbol': 'Not an OCC option symbol: SPY261218C00450000 is the form.',
    });
  });
});

describe('amounts typed in the text boxes', () => {
  it.each([
    ['5000', 5000],
    ['5,000', 5000],
    ['1,234,567.5', 1234567.5],
    [' 0.5 ', 0.5],
    ['.5', 0.5],
    ['-10', -10],
  ])('reads %j as %d', (typed, value) => expect(decimalOf(typed)).toBe(value));

  it.each(['1e3', '0x10', '5,00', '12,3456', '$5', '5%', '1e', '-', '.', 'Infinity', '1.2.3'])('refuses %j', (typed) => {
    expect(decimalOf(typed)).toBeNaN();
  });

  it('refuses an amount it cannot read instead of taking it for "no limit"', () => {
    expect(checkStrategyInputs({ ...EMPTY_INPUTS, name: 'x', entry_max_position_size: '5.000,00' }).entry_max_position_size).toMatch(/dollar amount/);
    expect(createBody({ ...EMPTY_INPUTS, name: 'x', entry_max_position_size: '5,000' }).entry_max_position_size).toBe(5000);
  });
});
