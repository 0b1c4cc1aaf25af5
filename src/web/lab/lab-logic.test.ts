import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { formErrorsFromApi } from './form-errors';
import { formatCount, formatDays, formatMoney, formatPercent, formatRatio, signClass } from '../ui/format';
import { checkMarketInputs, DEFAULT_MARKET_INPUTS, feedChoices } from './market-inputs';
import { checkParameters, defaultParameterInputs, parameterRequest } from './template-parameters';
import { SMA_TEMPLATE } from './template-fixtures';

const SMA = SMA_TEMPLATE;

describe('lab number formats', () => {
  it('shows fractions as percentages, money with cents, and null as a dash', () => {
    expect(formatPercent(0.79916)).toBe('79.92%');
    expect(formatPercent(-0.1983)).toBe('-19.83%');
    expect(formatMoney(-524.687)).toBe('-$524.69');
    expect(formatRatio(1.949)).toBe('1.95');
    expect(formatDays(1)).toBe('1 day');
    for (const format of [formatPercent, formatMoney, formatRatio, formatDays]) expect(format(null)).toBe('—');
  });

  it('shows no minus sign on a figure that rounds to zero, one day as "1 day", and what is not a number as a dash', () => {
    expect(formatPercent(-0.00001)).toBe('0.00%');
    expect(formatMoney(-0.001)).toBe('$0.00');
    expect(formatDays(1.04)).toBe('1 day');
    expect(formatDays(1.05)).toBe('1.1 days');
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      for (const format of [formatPercent, formatMoney, formatRatio, formatDays, formatCount]) expect(format(value)).toBe('—');
      expect(signClass(value)).toBe('');
    }
  });
});

describe('API errors placed beside their controls', () => {
  const cases: [string, ApiError, string][] = [
    ['a symbol that is not a ticker', new ApiError(400, 'invalid_symbol', 'Not a ticker'), 'symbol'],
    ['a parameter the engine names', new ApiError(400, 'invalid_parameter', 'fast', [{ field: 'strategy_params.fast_period', message: 'x' }]), 'param.fast_period'],
    ['a parameter named by its index', new ApiError(400, 'validation_failed', 'type', [{ field: 'body.strategy_params.1.value', message: 'x' }]), 'param.slow_period'],
    ['a date', new ApiError(400, 'invalid_date', 'bad', [{ field: 'body.start_date', message: 'x' }]), 'start_date'],
    ['an end before the start', new ApiError(400, 'invalid_period', 'before', [{ field: 'body.end_date', message: 'x' }]), 'end_date'],
    ['a period without bars', new ApiError(422, 'no_bars', 'none'), 'period'],
    ['the premium feed', new ApiError(403, 'feed_not_entitled', 'sub'), 'data_feed'],
    ['a schema error on capital', new ApiError(400, 'validation_failed', 'low', [{ field: 'body.initial_capital', message: 'x' }]), 'initial_capital'],
    ['no templates to compare', new ApiError(400, 'no_strategies', 'empty', [{ field: 'body.strategies', message: 'x' }]), 'strategies'],
  ];
  it('an unknown symbol, with where to find one in the form', () => {
    const error = new ApiError(404, 'unknown_symbol', 'We have no prices for XYZ.', [{ field: 'body.symbol', message: 'x' }]);
    expect(formErrorsFromApi(error)).toEqual({ fields: { symbol: 'We have no prices for XYZ. Pick a symbol from the list: type part of a ticker or name to search.' } });
  });
  it.each(cases)('%s', (_, error, control) => {
    expect(formErrorsFromApi(error, ['fast_period', 'slow_period'])).toEqual({ fields: { [control]: error.message } });
  });

  it('puts a rate limit, an outage and a network failure above the button', () => {
    expect(formErrorsFromApi(new ApiError(429, 'rate_limited', 'Slow down.')).form).toMatch(/^Slow down\. .*try again/);
    expect(formErrorsFromApi(new ApiError(503, 'provider_unavailable', 'Down.')).form).toMatch(/\(503\): Down\./);
    expect(formErrorsFromApi(new ApiError(0, 'network_error', 'No network.')).form).toBe('No network.');
  });
});

describe('client-side checks', () => {
  it('accepts the defaults and refuses an end before the start and a capital of 0', () => {
    expect(checkMarketInputs(DEFAULT_MARKET_INPUTS)).toEqual({});
    const errors = checkMarketInputs({ ...DEFAULT_MARKET_INPUTS, end_date: '1999-12-31', initial_capital: '0', symbol: ' ' });
    expect(Object.keys(errors).sort()).toEqual(['end_date', 'initial_capital', 'symbol']);
  });

  it('checks parameters against their bounds and type, and sends every one in catalogue order', () => {
    expect(checkParameters(SMA, defaultParameterInputs(SMA))).toEqual({});
    expect(checkParameters(SMA, { fast_period: '1', slow_period: '30.5' })).toEqual({
      'param.fast_period': 'Enter a whole number from 2 to 100.',
      'param.slow_period': 'Enter a whole number from 5 to 400.',
    });
    expect(checkParameters(SMA, { fast_period: '100', slow_period: '' })).toEqual({ 'param.slow_period': 'Enter a whole number from 5 to 400.' });
    expect(parameterRequest(SMA, { slow_period: '50', fast_period: '20' })).toEqual([
      { name: 'fast_period', value: 20 },
      { name: 'slow_period', value: 50 },
    ]);
  });
});

describe('the feed field', () => {
  const delayed = { id: 'delayed_sip', name: 'Delayed SIP', description: '' } as const;
  const realTime = { id: 'sip', name: 'SIP real time', description: '' } as const;

  it('offers the feeds the server can serve, and no other', () => {
    expect(feedChoices([delayed], 'delayed_sip')).toEqual([{ value: 'delayed_sip', label: 'Delayed SIP (free)' }]);
    expect(feedChoices([delayed, realTime], 'delayed_sip').map((choice) => choice.value)).toEqual(['delayed_sip', 'sip']);
  });

  it('shows a feed an address asked for that the server cannot serve as what it is, so the field matches what is sent', () => {
    expect(feedChoices([delayed], 'sip')).toEqual([
      { value: 'delayed_sip', label: 'Delayed SIP (free)' },
      { value: 'sip', label: 'sip (not served here)' },
    ]);
  });
});
