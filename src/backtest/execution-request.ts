/**
 * A backtest request's execution settings (execution.schema.ts) as the engine takes them, in one place for the four
 * backtest routes: the schema bounds each field; what a schema cannot say (a sizing value's meaning per mode) is
 * checked here. A request naming none of `costs`, `sizing`, `exits`, `benchmark` runs FRICTIONLESS and is answered
 * as before, without the echo or the benchmark.
 */
import type { Static } from 'typebox';
import { FRICTIONLESS, NO_COSTS, NO_EXITS, type ExecutionSettings, type Exits, type Sizing } from '../engine/execution/settings.js';
import { BadRequest } from '../platform/errors.js';
import { assertTicker } from '../market/market-terms.js';
import { MAX_FIXED_SHARES, type CostsRequest, type ExitsRequest, type SizingRequest } from './execution.schema.js';

export interface ExecutionRequest {
  readonly costs?: Static<typeof CostsRequest>;
  readonly sizing?: Static<typeof SizingRequest>;
  readonly exits?: Static<typeof ExitsRequest>;
  readonly benchmark?: string;
}

export interface RequestedExecution {
  readonly settings: ExecutionSettings;
  /** Whether the request named any of the four fields: only then does the answer carry the echo and the benchmark. */
  readonly named: boolean;
  /** The benchmark the request names; undefined: the route's default (the backtested symbol). */
  readonly benchmark: string | undefined;
}

const NOT_NAMED: RequestedExecution = { settings: FRICTIONLESS, named: false, benchmark: undefined };

/** The request's execution settings, defaults filled in; 400 for a sizing value its mode cannot take or a bad ticker. */
export function requestedExecution(request: ExecutionRequest): RequestedExecution {
  const { costs, sizing, exits, benchmark } = request;
  if (costs === undefined && sizing === undefined && exits === undefined && benchmark === undefined) return NOT_NAMED;
  if (benchmark !== undefined) assertBenchmarkTicker(benchmark);
  return {
    settings: {
      costs: { ...NO_COSTS, ...costs },
      sizing: sizing === undefined ? FRICTIONLESS.sizing : sizingOf(sizing),
      exits: exits === undefined ? NO_EXITS : { ...NO_EXITS, ...exits },
    },
    named: true,
    benchmark,
  };
}

function sizingOf({ mode, value }: Static<typeof SizingRequest>): Sizing {
  const refuse = (message: string) => new BadRequest('invalid_sizing', message, [{ field: 'body.sizing.value', message }]);
  if (mode === 'all_in') {
    if (value !== undefined) throw refuse('all_in takes no value: it buys the most whole shares the cash affords, commission included.');
    return { mode };
  }
  if (value === undefined) throw refuse(`${mode} needs a value (${WHAT_VALUE_IS[mode]}).`);
  if (mode === 'percent_of_equity') {
    if (value > 1) throw refuse(`${value} is above 1: percent_of_equity is a fraction of the equity, 0 < value ≤ 1 (0.25 = 25 %, 1 = all of it).`);
    if (!(value > 0)) throw refuse(`${value} is not above 0: ${WHAT_VALUE_IS[mode]}.`);
  } else if (mode === 'fixed_amount') {
    if (!(value > 0 && value <= 1e12)) throw refuse(`${value} is not a budget: ${WHAT_VALUE_IS[mode]}.`);
  } else if (!(Number.isInteger(value) && value >= 1 && value <= MAX_FIXED_SHARES)) {
    throw refuse(`${value} is not a whole number of shares: ${WHAT_VALUE_IS[mode]}.`);
  }
  return { mode, value };
}

const WHAT_VALUE_IS = {
  percent_of_equity: 'a fraction of the equity at the signal’s close, 0 < value ≤ 1',
  fixed_amount: 'dollars per buy, 0 < value ≤ 1,000,000,000,000',
  fixed_shares: `a whole number of shares per buy, 1 to ${MAX_FIXED_SHARES.toLocaleString('en-US')}`,
} as const;

function assertBenchmarkTicker(symbol: string): void {
  try {
    assertTicker(symbol);
  } catch (error) {
    if (error instanceof BadRequest) throw new BadRequest(error.code, error.message.replace('Symbol', 'Benchmark'), [{ field: 'body.benchmark', message: 'is not a ticker' }]);
    throw error;
  }
}

/**
 * A library strategy's exits: its own rule fields, each left null filled in from the request's `exits` (the
 * strategy's field wins where both name one).
 */
export function libraryExits(own: { stopLossPct: number | null; profitTargetPct: number | null; trailingStopPct: number | null }, requested: Exits): Exits {
  return {
    stop_loss_pct: own.stopLossPct ?? requested.stop_loss_pct,
    take_profit_pct: own.profitTargetPct ?? requested.take_profit_pct,
    trailing_stop_pct: own.trailingStopPct ?? requested.trailing_stop_pct,
  };
}

/**
 * The part of a response cache key the execution settings add: nothing when the request named none (so such a
 * request shares today's answer), else the settings and the benchmark's symbol and bars version.
 */
export function executionKey(execution: RequestedExecution, benchmark: { symbol: string; version: number } | null): unknown[] {
  return execution.named ? [execution.settings, benchmark?.symbol ?? null, benchmark?.version ?? null] : [];
}
