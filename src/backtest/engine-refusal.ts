import { EngineError } from '../engine/index.js';
import { BadRequest } from '../platform/errors.js';

/** Runs engine code on request input: what the engine refuses (an `EngineError`) is the request's mistake, a 400. */
export function refusedByEngine<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof EngineError) throw new BadRequest(error.code, error.message, error.details);
    throw error;
  }
}

/** `refusedByEngine` for asynchronous engine work (a sweep, whose cells run on worker threads). */
export async function refusedByEngineAsync<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof EngineError) throw new BadRequest(error.code, error.message, error.details);
    throw error;
  }
}
