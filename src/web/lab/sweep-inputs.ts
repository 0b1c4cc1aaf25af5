import { ApiError } from '../api';
import { formErrorsFromApi, type FormErrors } from './form-errors';
import type { SweepValidation } from './sweep-types';

/** The optional out-of-sample check, as typed: shares are percentages in the form and fractions in the request. */
export interface ValidationInputs {
  readonly kind: 'none' | 'fraction' | 'split_date' | 'walk_forward';
  /** The in-sample share of the bars in percent, for `fraction` and `walk_forward`. */
  readonly in_sample_percent: string;
  readonly split_date: string;
  readonly windows: string;
}

export const DEFAULT_VALIDATION: ValidationInputs = { kind: 'none', in_sample_percent: '70', split_date: '2015-01-02', windows: '5' };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Client-side checks, keyed `validation.<input>`; the server checks again (each side needs at least two bars). */
export function checkValidation(inputs: ValidationInputs, period: { start_date: string; end_date: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  if (inputs.kind === 'fraction' || inputs.kind === 'walk_forward') {
    const percent = Number(inputs.in_sample_percent);
    if (inputs.in_sample_percent.trim() === '' || !Number.isFinite(percent) || percent <= 0 || percent >= 100) {
      errors['validation.in_sample_percent'] = 'Enter a share above 0 and below 100.';
    }
  }
  if (inputs.kind === 'split_date') {
    if (!DAY.test(inputs.split_date)) errors['validation.split_date'] = 'Enter the first day of the held-out part.';
    else if (inputs.split_date <= period.start_date || inputs.split_date > period.end_date) {
      errors['validation.split_date'] = 'Enter a day after the start date and not after the end date.';
    }
  }
  if (inputs.kind === 'walk_forward') {
    const windows = Number(inputs.windows);
    if (!Number.isInteger(windows) || windows < 2 || windows > 50) errors['validation.windows'] = 'Enter a whole number from 2 to 50.';
  }
  return errors;
}

/** `validation` of the sweep request, or undefined for none. */
export function validationRequest(inputs: ValidationInputs): SweepValidation | undefined {
  const fraction = Number(inputs.in_sample_percent) / 100;
  switch (inputs.kind) {
    case 'none':
      return undefined;
    case 'fraction':
      return { in_sample_fraction: fraction };
    case 'split_date':
      return { split_date: inputs.split_date };
    case 'walk_forward':
      return { walk_forward: { windows: Number(inputs.windows), in_sample_fraction: fraction } };
  }
}

/** The server's default minimum of round-trip trades (docs/market-data.md, "Parameter sweep route"). */
export const DEFAULT_MIN_TRADES = '10';
const MAX_MIN_TRADES = 100_000;

/** The minimum of trades as typed: a whole number from 0 to 100,000, keyed `min_trades`; the server checks again. */
export function checkMinTrades(text: string): Record<string, string> {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 0 || value > MAX_MIN_TRADES) {
    return { min_trades: 'Enter a whole number of trades from 0 to 100,000.' };
  }
  return {};
}

/** The control (or group) of the Optimize form each sweep refusal code concerns when the answer names no field. */
const GROUP_OF_CODE: Readonly<Record<string, string>> = {
  grid_too_large: 'grid',
  invalid_grid: 'grid',
  invalid_validation: 'validation',
  invalid_objective: 'objective',
};

/**
 * Places a refusal of `POST /api/backtest/sweep` on the Optimize form: `grid.<name>` (and deeper) beside that
 * parameter's range, `grid`, `validation…` and `objective` on their groups; the rest as the other lab forms do.
 */
export function sweepFormErrors(error: unknown): FormErrors {
  if (error instanceof ApiError) {
    const field = error.field;
    if (field?.startsWith('grid.')) return { fields: { [`grid.${field.split('.')[1]}`]: error.message } };
    if (field === 'grid') return { fields: { grid: error.message } };
    if (field?.startsWith('validation')) return { fields: { validation: error.message } };
    if (field === 'objective') return { fields: { objective: error.message } };
    if (field === 'min_trades') return { fields: { min_trades: error.message } };
    const group = field === undefined ? GROUP_OF_CODE[error.code] : undefined;
    if (group) return { fields: { [group]: error.message } };
  }
  return formErrorsFromApi(error);
}
