/**
 * POST /api/backtest/monte-carlo (docs/backtesting.md "Monte Carlo"): a legacy backtest, then its closed trades'
 * returns resampled on the worker threads. Cached like a backtest body: the answer is a pure function of the
 * request and the bars, the random stream included (seeded).
 */
import { Unprocessable } from '../platform/errors.js';
import { assertTicker, dataFeedOf, requestedPeriod } from '../market/market-terms.js';
import { resolveTemplateParameters, roundFraction, roundMoney, runTemplateBacktest } from '../engine/index.js';
import type { MonteCarloResult as EngineResult } from '../engine/monte-carlo/index.js';
import type { Percentiles } from '../engine/monte-carlo/percentile.js';
import { byExit } from '../engine/report/index.js';
import { barsInPeriod, templateById } from './backtest.service.js';
import { refusedByEngine, refusedByEngineAsync } from './engine-refusal.js';
import { requestedExecution } from './execution-request.js';
import { templateRoundTrips } from './report-result.js';
import type { SweepDeps } from './sweep.service.js';
import { DEFAULT_RUNS, DEFAULT_SEED, type MonteCarloRequest } from './monte-carlo.schema.js';

export async function monteCarloBody(deps: SweepDeps, request: MonteCarloRequest, serialize: (result: EngineResult) => string): Promise<Buffer> {
  const template = templateById(request.strategy);
  const params = refusedByEngine(() => resolveTemplateParameters(template, request.strategy_params ?? []));
  const period = requestedPeriod(request.start_date, request.end_date);
  const feed = dataFeedOf(request.data_feed);
  assertTicker(request.symbol);
  // The settings decide the trades; a named benchmark changes nothing here (the answer has no benchmark).
  const { settings } = requestedExecution(request);
  const { series: bars, version } = await barsInPeriod(deps.marketData, request.symbol, period, feed);
  const runs = request.runs ?? DEFAULT_RUNS;
  const seed = request.seed ?? DEFAULT_SEED;
  const method = request.method ?? 'bootstrap';
  const capital = request.initial_capital;
  const key = JSON.stringify(['monte-carlo', request.symbol, version, period.from, period.to, feed, template.id, params, capital, settings, runs, seed, method]);
  return deps.responses.getOrCreate(key, async () => {
    const run = runTemplateBacktest(bars, template, params, capital, settings);
    const trades = byExit(templateRoundTrips(run.trades));
    if (trades.length === 0) {
      throw new Unprocessable('no_trades', `${template.name} closed no trade on ${request.symbol} in this period: there is nothing to resample. Widen the period or change the parameters.`);
    }
    const result = await refusedByEngineAsync(() => deps.sweeps.runMonteCarlo({ returns: trades.map((t) => t.return), initialCapital: capital, runs, seed, method }));
    return serialize(rounded(result));
  });
}

/** Money to the cent, fractions to 8 decimals (docs/backtesting.md "Output precision"). */
function rounded(r: EngineResult): EngineResult {
  const each = (p: Percentiles, round: (x: number) => number): Percentiles => ({ p5: round(p.p5), p25: round(p.p25), p50: round(p.p50), p75: round(p.p75), p95: round(p.p95) });
  const money = (xs: number[]) => xs.map(roundMoney);
  return {
    ...r,
    final_equity: each(r.final_equity, roundMoney),
    max_drawdown: each(r.max_drawdown, roundFraction),
    probability_of_loss: roundFraction(r.probability_of_loss),
    bands: {
      trade_numbers: r.bands.trade_numbers,
      p5: money(r.bands.p5),
      p25: money(r.bands.p25),
      p50: money(r.bands.p50),
      p75: money(r.bands.p75),
      p95: money(r.bands.p95),
      actual: money(r.bands.actual),
    },
  };
}
