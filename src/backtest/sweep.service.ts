import { BadRequest } from '../platform/errors.js';
import { assertTicker, dataFeedOf, requestedPeriod, utcDay } from '../market/market-terms.js';
import { planSweep, runSweep, type SweepObjective, type SweepValidation as EngineSweepValidation } from '../engine/index.js';
import { barsInPeriod, templateById, usedPeriod, type BacktestDeps } from './backtest.service.js';
import { refusedByEngine, refusedByEngineAsync } from './engine-refusal.js';
import type { SweepPool } from './sweep-pool.js';
import { sweepResult } from './sweep-result.js';
import { DEFAULT_MIN_TRADES, type SweepRequest, type SweepResult, type SweepValidation } from './sweep.schema.js';
import { benchmarkRun } from '../engine/benchmark/index.js';
import { benchmarkFor } from './benchmark-bars.js';
import { executionKey, requestedExecution } from './execution-request.js';
import { benchmarkSummary, executionEcho } from './execution-result.js';

export interface SweepDeps extends BacktestDeps {
  /** The worker threads the cells run on. */
  readonly sweeps: SweepPool;
}

/**
 * POST /api/backtest/sweep: a template over a grid of one or two of its parameters, as the JSON body `serialize`
 * (the route's response schema) makes of it; validates the grid before reading bars, runs the cells on the worker
 * threads, caches the body under the bars version like a backtest body (a sweep is deterministic too).
 */
export async function sweepBody(deps: SweepDeps, request: SweepRequest, serialize: (result: SweepResult) => string): Promise<Buffer> {
  const template = templateById(request.strategy);
  const plan = refusedByEngine(() => planSweep(template, request.grid));
  const validation = engineValidation(request.validation);
  const period = requestedPeriod(request.start_date, request.end_date);
  const feed = dataFeedOf(request.data_feed);
  assertTicker(request.symbol);
  const execution = requestedExecution(request);
  const { series: bars, version } = await barsInPeriod(deps.marketData, request.symbol, period, feed);
  const benchmark = execution.named ? await benchmarkFor(deps.marketData, execution.benchmark ?? request.symbol, { symbol: request.symbol, series: bars, version }, feed) : null;
  const objective = request.objective as SweepObjective;
  const minTrades = request.min_trades ?? DEFAULT_MIN_TRADES;
  const capital = request.initial_capital;
  // The plan's axes, not the request's grid: a range and the list of its values are the same sweep.
  const key = JSON.stringify(['sweep', request.symbol, version, period.from, period.to, feed, template.id, plan.parameters, plan.axes, objective, minTrades, validation ?? null, capital, ...executionKey(execution, benchmark)]);
  return deps.responses.getOrCreate(key, async () => {
    const benchmarked = benchmark && refusedByEngine(() => benchmarkRun(benchmark.symbol, bars.dates, benchmark.bars, capital));
    const settings = execution.settings;
    const outcome = await refusedByEngineAsync(() =>
      runSweep({ bars, template, plan, initialCapital: capital, objective, minTrades, execution: settings, ...(validation ? { validation } : {}) }, (cellBars, cells) =>
        deps.sweeps.runCells(cellBars, template, cells, capital, settings),
      ),
    );
    const result = sweepResult({ symbol: request.symbol, template, ...usedPeriod(bars), objective, minTrades, bars, plan, outcome });
    if (benchmark && benchmarked) Object.assign(result, executionEcho(settings), { benchmark: benchmarkSummary(benchmark.symbol, benchmarked) });
    return serialize(result);
  });
}

/** The request's validation as the engine takes it: a split date as a calendar day. */
function engineValidation(validation: SweepValidation | undefined): EngineSweepValidation | undefined {
  if (validation === undefined || !('split_date' in validation)) return validation;
  try {
    return { split_date: utcDay('validation.split_date', validation.split_date) };
  } catch (error) {
    if (error instanceof BadRequest) throw new BadRequest('invalid_validation', error.message, error.details);
    throw error;
  }
}
