import { EngineError } from '../engine/index.js';
import { BadRequest, Unprocessable, type AppError } from '../platform/errors.js';

/** What the engine refuses on a well-formed request's meaning (422); every other refusal is the request's mistake (400). */
const UNPROCESSABLE = new Set(['benchmark_too_short', 'capital_exhausted', 'no_occ_symbol']);

function refusal(error: EngineError): AppError {
  return UNPROCESSABLE.has(error.code) ? new Unprocessable(error.code, error.message, error.details) : new BadRequest(error.code, error.message, error.details);
}

/** Runs engine code on request input: what the engine refuses (an `EngineError`) becomes a 400, or a 422 for `benchmark_too_short`, `capital_exhausted` and `no_occ_symbol`. */
export function refusedByEngine<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof EngineError) throw refusal(error);
    throw error;
  }
}

/** `refusedByEngine` for asynchronous engine work (a sweep, whose cells run on worker threads). */
export async function refusedByEngineAsync<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof EngineError) throw refusal(error);
    throw error;
  }
}
