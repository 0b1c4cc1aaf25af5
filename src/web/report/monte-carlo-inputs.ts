/** The Monte Carlo form: its inputs, their checks (the server's bounds), the request and where a refusal goes (pure). */
import { ApiError, describeError } from '../api';
import type { FormErrors } from '../ui/form-errors';
import type { MonteCarloMethod } from './report-types';

export interface MonteCarloInputs {
  readonly runs: string;
  readonly seed: string;
  readonly method: MonteCarloMethod;
}

export const DEFAULT_MONTE_CARLO_INPUTS: MonteCarloInputs = { runs: '1000', seed: '1', method: 'bootstrap' };
export const MAX_RUNS = 10_000;

const WHOLE = /^-?\d+$/;

export function checkMonteCarloInputs(inputs: MonteCarloInputs): Record<string, string> {
  const errors: Record<string, string> = {};
  const runs = inputs.runs.trim();
  if (!WHOLE.test(runs) || Number(runs) < 1 || Number(runs) > MAX_RUNS) errors.runs = 'Enter a whole number of runs from 1 to 10,000.';
  if (!WHOLE.test(inputs.seed.trim()) || !Number.isSafeInteger(Number(inputs.seed.trim()))) errors.seed = 'Enter a whole number, such as 1.';
  return errors;
}

/** The backtest's own request (without `report`) and the Monte Carlo's settings. */
export function monteCarloRequest(backtest: Readonly<Record<string, unknown>>, inputs: MonteCarloInputs): Record<string, unknown> {
  const { report: _report, ...request } = backtest;
  return { ...request, runs: Number(inputs.runs.trim()), seed: Number(inputs.seed.trim()), method: inputs.method };
}

const FIELDS = new Set(['runs', 'seed', 'method']);

/**
 * A refusal beside the field it names; a full worker queue (503 `busy`) as a message to try again; anything else
 * above the button as the server wrote it.
 */
export function monteCarloErrors(error: unknown): FormErrors {
  if (error instanceof ApiError) {
    if (error.status === 503 && error.code === 'busy') return { fields: {}, form: 'The server is busy with other simulations and sweeps. Try again in a few seconds.' };
    const field = error.field;
    if (field && FIELDS.has(field)) return { fields: { [field]: error.message } };
  }
  return { fields: {}, form: describeError(error) };
}
