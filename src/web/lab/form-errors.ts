import { ApiError, describeError } from '../api';
import type { FormErrors } from '../ui/form-errors';

/**
 * The lab's form keys: `symbol`, `strategy`, `start_date`, `end_date`, `period` (the two dates together),
 * `initial_capital`, `data_feed`, `strategies`, `param.<name>` for a template parameter, and the execution settings'
 * controls (execution-inputs.ts): `costs.x` and `exits.x` are `x`, `sizing.mode` and `sizing.value` are `sizing_mode`
 * and `sizing_value`, `benchmark` is itself.
 */
export { hasErrors, NO_ERRORS, type FormErrors } from '../ui/form-errors';

/** The control each API error code concerns when the answer names no field (docs/market-data.md, "HTTP API"). */
const FIELD_OF_CODE: Readonly<Record<string, string>> = {
  invalid_symbol: 'symbol',
  unknown_symbol: 'symbol',
  unknown_strategy: 'strategy',
  invalid_period: 'end_date',
  no_bars: 'period',
  unknown_data_feed: 'data_feed',
  feed_not_entitled: 'data_feed',
  no_strategies: 'strategies',
  duplicate_strategy: 'strategies',
  benchmark_too_short: 'benchmark',
};

/** What to do about a refusal, in the form's words where the API's message cannot know the form. */
const GUIDANCE_OF_CODE: Readonly<Record<string, string>> = {
  unknown_symbol: ' Pick a symbol from the list: type part of a ticker or name to search.',
};

const KNOWN_FIELDS = new Set(['symbol', 'strategy', 'start_date', 'end_date', 'initial_capital', 'data_feed', 'strategies', 'benchmark']);
const NESTED_FIELDS = new Set(['costs', 'exits', 'sizing']);

/**
 * Places a refusal from the API beside the control it concerns. `sentParameters` are the parameter names in
 * the order sent, so a schema error on `strategy_params.1.value` finds its input too.
 */
export function formErrorsFromApi(error: unknown, sentParameters: readonly string[] = []): FormErrors {
  if (!(error instanceof ApiError)) return { fields: {}, form: describeError(error) };
  const key = controlOf(error, sentParameters);
  // The guidance is the symbol field's (its suggestion list); the same code on the benchmark gets the message alone.
  if (key) return { fields: { [key]: `${error.message}${key === 'symbol' ? (GUIDANCE_OF_CODE[error.code] ?? '') : ''}` } };
  if (error.code === 'rate_limited') {
    return { fields: {}, form: `${error.message} Too many runs from this network in a minute: wait a moment and try again.` };
  }
  if (error.status >= 500) {
    return { fields: {}, form: `The server could not finish the run (${error.status}): ${error.message} Try again in a moment.` };
  }
  return { fields: {}, form: error.message };
}

function controlOf(error: ApiError, sentParameters: readonly string[]): string | undefined {
  const field = error.field;
  if (field?.startsWith('strategy_params')) {
    const [, nameOrIndex] = field.split('.');
    if (nameOrIndex === undefined) return undefined;
    const byIndex = /^\d+$/.test(nameOrIndex) ? sentParameters[Number(nameOrIndex)] : nameOrIndex;
    return byIndex === undefined ? undefined : `param.${byIndex}`;
  }
  if (field !== undefined) {
    const [top, leaf] = field.split('.') as [string, string | undefined];
    if (KNOWN_FIELDS.has(top)) return top;
    if (NESTED_FIELDS.has(top)) return top === 'sizing' ? `sizing_${leaf ?? 'value'}` : leaf;
  }
  return FIELD_OF_CODE[error.code];
}
