/**
 * The execution settings of a library backtest, by the strategy's kind (docs/backtesting.md "Over HTTP"): an equity
 * strategy takes the lab's costs, sizing, exits and benchmark (execution-inputs.ts); an options strategy only the
 * commission per contract, since naming `sizing` or `exits` for it is a 422 `unsupported_for_options`.
 */
import { checkExecutionInputs, DEFAULT_EXECUTION_INPUTS, executionRequest, type ExecutionInputs } from '../lab/execution-inputs';
import { isOptionsType } from './strategy-labels';
import type { LibraryBacktestRequest, StrategyType } from './types';

export interface LibraryExecutionInputs {
  readonly execution: ExecutionInputs;
  /** Dollars per leg and contract on each opening and closing fill, as typed. */
  readonly commission_per_contract: string;
}

export const DEFAULT_LIBRARY_EXECUTION: LibraryExecutionInputs = { execution: DEFAULT_EXECUTION_INPUTS, commission_per_contract: '0' };

type ExecutionFields = Pick<LibraryBacktestRequest, 'costs' | 'sizing' | 'exits' | 'benchmark'>;

/** Client-side checks of the fields the kind shows, keyed by control. */
export function checkLibraryExecution(type: StrategyType, inputs: LibraryExecutionInputs): Record<string, string> {
  if (!isOptionsType(type)) return checkExecutionInputs(inputs.execution);
  const text = inputs.commission_per_contract.trim();
  const value = Number(text);
  return text === '' || !Number.isFinite(value) || value < 0 || value > 1e12 ? { commission_per_contract: 'Enter dollars per contract, 0 or more, such as 0.65.' } : {};
}

/** The request's execution fields for checked inputs; without a benchmark typed, the server's default (a backtested symbol). */
export function libraryExecutionRequest(type: StrategyType, inputs: LibraryExecutionInputs): ExecutionFields {
  if (isOptionsType(type)) return { costs: { commission_per_contract: Number(inputs.commission_per_contract) } };
  const { benchmark, ...settings } = executionRequest(inputs.execution, '');
  return benchmark === '' ? settings : { ...settings, benchmark };
}
