/**
 * What the engine refuses, as data: a snake_case `code`, a message for a person and the fields at fault. The engine
 * knows nothing of HTTP; the feature that called it decides the status (the backtest routes answer 400).
 */
export interface EngineErrorDetail {
  readonly field: string;
  readonly message: string;
  readonly [key: string]: unknown;
}

export class EngineError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: readonly EngineErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
