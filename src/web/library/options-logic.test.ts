import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { MAX_SPREAD_WIDTH } from '../../strategies/options-spec';
import { MAX_DTE_LIMIT } from '../../strategies/strategies.schema';
import { placeApiError } from './errors';
import { checkStrategyInputs, createBody, EMPTY_INPUTS, inputsOf, patchBody, STRATEGY_CONTROLS, TICKER } from './strategy-inputs';
import { checkSpecInputs, EMPTY_SPEC_INPUTS, MAX_SPEC_DTE, MAX_SPEC_WIDTH, sameSpec, specInputsOf, specOf, volatilitySymbolOf, type OptionsSpecInputs } from './options-spec-inputs';
import { contractCommissionSentence, creditWords, isOptionsResult, legWords, modeledPricesNote, optionsExitReasonWords, skippedEntriesWords, specSummary } from './options-words';
import type { BacktestAnswer, StrategyView } from './types';

const isTicker = (symbol: string) => TICKER.test(symbol);
const condor: OptionsSpecInputs = { ...EMPTY_SPEC_INPUTS, 'options_spec.short_delta': '0.16', 'options_spec.wing_width': '10', 'options_spec.dte': '45' };

describe('the options spec typed in the form and sent to the API', () => {
  it('sends an iron condor with a delta-placed short strike', () => {
    expect(specOf('iron_condor', condor)).toEqual({ short_delta: 0.16, wing_width: 10, dte: 45 });
    expect(checkSpecInputs('iron_condor', condor, isTicker)).toEqual({});
  });

  it('sends a vertical with its structure, and a percent out of the money as a fraction', () => {
    const vertical: OptionsSpecInputs = { ...EMPTY_SPEC_INPUTS, 'options_spec.structure': 'call_debit', options_strike_by: 'otm', 'options_spec.short_otm_pct': '7', 'options_spec.width': '5', 'options_spec.dte': '30' };
    expect(specOf('vertical_spread', vertical)).toEqual({ structure: 'call_debit', short_otm_pct: 0.07, width: 5, dte: 30 });
    // The other way of placing the strike keeps what was typed in it, but only the chosen one is sent.
    expect(specOf('vertical_spread', { ...vertical, 'options_spec.short_delta': '0.3' })).toEqual({ structure: 'call_debit', short_otm_pct: 0.07, width: 5, dte: 30 });
  });

  it('sends no spec when its boxes are empty, and the volatility symbol in capitals or null', () => {
    expect(specOf('iron_condor', EMPTY_SPEC_INPUTS)).toBeNull();
    expect(checkSpecInputs('vertical_spread', EMPTY_SPEC_INPUTS, isTicker)).toEqual({});
    expect(volatilitySymbolOf({ ...condor, volatility_symbol: ' vix ' })).toBe('VIX');
    expect(volatilitySymbolOf(condor)).toBeNull();
  });

  it('loads a stored spec into the boxes it came from, and back to the same spec', () => {
    const stored = { structure: 'put_credit' as const, short_otm_pct: 0.05, width: 5, dte: 30 };
    const inputs = specInputsOf(stored, 'VIX');
    expect(inputs).toMatchObject({ options_strike_by: 'otm', 'options_spec.short_otm_pct': '5', 'options_spec.width': '5', 'options_spec.dte': '30', volatility_symbol: 'VIX' });
    expect(specOf('vertical_spread', inputs)).toEqual(stored);
    expect(specInputsOf({ short_delta: 0.2, wing_width: 25, dte: 60 }, null)).toMatchObject({ options_strike_by: 'delta', 'options_spec.short_delta': '0.2', 'options_spec.wing_width': '25' });
    expect(specInputsOf(null, null)).toEqual(EMPTY_SPEC_INPUTS);
  });

  it('compares specs whatever the order of their keys', () => {
    expect(sameSpec({ dte: 45, wing_width: 10, short_delta: 0.16 }, { short_delta: 0.16, wing_width: 10, dte: 45 })).toBe(true);
    expect(sameSpec({ short_delta: 0.16, wing_width: 10, dte: 45 }, { short_delta: 0.16, wing_width: 10, dte: 46 })).toBe(false);
    expect(sameSpec(null, undefined)).toBe(true);
  });

  it('has the API’s bounds', () => {
    expect([MAX_SPEC_WIDTH, MAX_SPEC_DTE]).toEqual([MAX_SPREAD_WIDTH, MAX_DTE_LIMIT]);
  });

  it('checks a begun spec box by box, keyed by the API field paths', () => {
    expect(checkSpecInputs('iron_condor', { ...EMPTY_SPEC_INPUTS, 'options_spec.dte': '45' }, isTicker)).toEqual({
      'options_spec.short_delta': 'Enter the short strike’s delta, such as 0.16.',
      'options_spec.wing_width': 'Enter the width in dollars, such as 5.',
    });
    expect(checkSpecInputs('vertical_spread', { ...condor, 'options_spec.short_delta': '16', 'options_spec.width': '0', 'options_spec.dte': '4.5', volatility_symbol: '1VIX' }, isTicker)).toEqual({
      'options_spec.short_delta': 'Enter a delta above 0 and below 1, such as 0.16.',
      'options_spec.width': 'Enter a width in dollars above 0 and at most 1,000, such as 5.',
      'options_spec.dte': 'Enter a whole number of days from 1 to 3650.',
      volatility_symbol: '“1VIX” is not a ticker such as VIX.',
    });
    // An iron condor's short put and call cannot both be past the money.
    expect(checkSpecInputs('iron_condor', { ...condor, 'options_spec.short_delta': '0.5', 'options_spec.wing_width': '1000.01' }, isTicker)).toEqual({
      'options_spec.short_delta': 'Enter a delta above 0 and below 0.5, such as 0.16.',
      'options_spec.wing_width': 'Enter a width in dollars above 0 and at most 1,000, such as 5.',
    });
    expect(checkSpecInputs('vertical_spread', { ...condor, options_strike_by: 'otm', 'options_spec.short_otm_pct': '100', 'options_spec.width': '5' }, isTicker)).toEqual({
      'options_spec.short_otm_pct': 'Enter a percentage above 0 and below 100, such as 5.',
    });
  });
});

describe('the options spec in the strategy form’s bodies', () => {
  const saved: StrategyView = {
    ...{ id: 4, name: 'SPX condor', description: '', strategy_type: 'iron_condor', is_active: true, created_at: '', updated_at: '' },
    ...{ entry_symbol_allowlist: 'SPX', entry_max_position_size: null, entry_allowed_sides: null, credit_min_amount: 1, entry_rule: null, exit_rule: null },
    ...{ exit_profit_target_pct: 0.5, exit_stop_loss_pct: -1, exit_trailing_stop_pct: null, exit_max_dte: 7 },
    options_spec: { dte: 45, wing_width: 10, short_delta: 0.16 },
    volatility_symbol: null,
  };

  it('creates an options strategy with its spec and volatility symbol', () => {
    const body = createBody({ ...EMPTY_INPUTS, ...condor, name: 'Condor', strategy_type: 'iron_condor', volatility_symbol: 'vix' });
    expect(body).toMatchObject({ strategy_type: 'iron_condor', options_spec: { short_delta: 0.16, wing_width: 10, dte: 45 }, volatility_symbol: 'VIX' });
    // Another type sends no spec, whatever its hidden boxes hold; nor are they checked.
    expect(createBody({ ...EMPTY_INPUTS, ...condor, name: 'Trend', volatility_symbol: 'VIX' })).not.toHaveProperty('options_spec');
    expect(checkStrategyInputs({ ...EMPTY_INPUTS, name: 'Trend', 'options_spec.dte': 'soon' })).toEqual({});
    expect(checkStrategyInputs({ ...EMPTY_INPUTS, name: 'Condor', strategy_type: 'iron_condor', 'options_spec.dte': 'soon' })).toHaveProperty(['options_spec.dte']);
  });

  it('patches the spec only when it changed, as a whole', () => {
    expect(patchBody(inputsOf(saved), saved)).toEqual({});
    expect(patchBody({ ...inputsOf(saved), 'options_spec.dte': '30', volatility_symbol: 'VIX' }, saved)).toEqual({
      options_spec: { short_delta: 0.16, wing_width: 10, dte: 30 },
      volatility_symbol: 'VIX',
    });
    expect(patchBody({ ...inputsOf(saved), 'options_spec.short_delta': '', 'options_spec.wing_width': '', 'options_spec.dte': '' }, saved)).toEqual({ options_spec: null });
    // Made an equity strategy: the spec goes with the type.
    expect(patchBody({ ...inputsOf(saved), strategy_type: 'equity_long' }, saved)).toEqual({ strategy_type: 'equity_long', options_spec: null });
  });
});

describe('API refusals of a spec beside their boxes', () => {
  const refusal = (field: string) => new ApiError(400, 'validation', 'msg', [{ field }]);
  it('places a spec field’s refusal on its box, and one about the spec as a whole on the fieldset', () => {
    expect(placeApiError(refusal('body.options_spec.wing_width'), STRATEGY_CONTROLS)).toEqual({ fields: { 'options_spec.wing_width': 'msg' } });
    expect(placeApiError(refusal('body.options_spec.short_otm_pct'), STRATEGY_CONTROLS)).toEqual({ fields: { 'options_spec.short_otm_pct': 'msg' } });
    expect(placeApiError(refusal('body.options_spec'), STRATEGY_CONTROLS)).toEqual({ fields: { options_spec: 'msg' } });
    expect(placeApiError(refusal('body.options_spec.legs'), STRATEGY_CONTROLS)).toEqual({ fields: { options_spec: 'msg' } });
    expect(placeApiError(refusal('body.volatility_symbol'), STRATEGY_CONTROLS)).toEqual({ fields: { volatility_symbol: 'msg' } });
  });
});

describe('an options backtest in words', () => {
  it('names the model and the volatility source in the modeled-prices note', () => {
    const pricing = { model: 'black_scholes' as const, volatility: 'realized_20d', spread: 'max(5 % of the model price, $0.05); a fill pays half', rate: 0 };
    expect(modeledPricesNote(pricing)).toBe('Modeled prices: Black–Scholes, volatility = realized 20-day, half of a modeled spread paid per fill — not market quotes.');
    expect(modeledPricesNote({ ...pricing, volatility: 'VIX', rate: 0.02 })).toBe(
      'Modeled prices: Black–Scholes, volatility = VIX close ÷ 100, risk-free rate 2.00%, half of a modeled spread paid per fill — not market quotes.',
    );
  });

  it('says each exit reason, leg and credit in words', () => {
    expect(['stop_loss', 'profit_target', 'max_dte', 'exit_rule', 'expiry', 'end_of_period'].map((reason) => optionsExitReasonWords(reason as never))).toEqual([
      'Stop loss',
      'Profit target',
      'Days to expiry at the limit',
      'Exit rule',
      'Held to expiry',
      'End of period',
    ]);
    expect(legWords({ side: 'short', right: 'put' })).toBe('Short put');
    expect(legWords({ side: 'long', right: 'call' })).toBe('Long call');
    expect(creditWords(1.25)).toBe('$1.25');
    expect(creditWords(-0.8)).toBe('$0.80 debit');
  });

  it('sums a spec up for the library list', () => {
    expect(specSummary({ short_delta: 0.16, wing_width: 10, dte: 45 }, null)).toBe('short delta 0.16, $10.00 wings, 45 days to expiry');
    expect(specSummary({ structure: 'put_credit', short_otm_pct: 0.05, width: 5, dte: 30 }, 'VIX')).toBe('put credit, short 5.00% out of the money, $5.00 wide, 30 days to expiry, volatility VIX');
  });

  it('explains skipped entries, one sentence per cause', () => {
    expect(skippedEntriesWords({ credit_below_minimum: 0, no_contract_affordable: 0, no_volatility: 0 }, null)).toEqual([]);
    expect(skippedEntriesWords({ credit_below_minimum: 3, no_contract_affordable: 1, no_volatility: 19 }, 1.5)).toEqual([
      '3 entry signals were skipped: the modeled credit was below the minimum credit of $1.50 a share.',
      '1 entry signal was skipped: not one contract was affordable, its maximum loss being more than the cash (or the strategy’s max position size).',
      '19 entry signals were skipped: there was no volatility yet to price the legs with (the realized 20-day volatility needs 21 closes; a volatility symbol needs a close on or before the day).',
    ]);
  });

  it('tells an options answer from an equity one by its pricing', () => {
    expect(isOptionsResult({ pricing: {} } as unknown as BacktestAnswer)).toBe(true);
    expect(isOptionsResult({ trades: [] } as unknown as BacktestAnswer)).toBe(false);
  });

  it('states the commission per contract an options result used, and none when it used none', () => {
    const costs = { commission_per_share: 0, commission_pct: 0, commission_min: 0, slippage_bps: 0, commission_per_contract: 0.65 };
    expect(contractCommissionSentence(costs)).toBe('Commission: $0.65 per contract and leg, on each opening and closing fill.');
    expect(contractCommissionSentence({ ...costs, commission_per_contract: 0 })).toBe('No commission assumed.');
    expect(contractCommissionSentence(undefined)).toBe('No commission assumed.');
  });
});
