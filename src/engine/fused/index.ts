/**
 * Templates that run as one fused pass (indicators, signals, fills, equity, drawdowns and the metrics' running
 * sums in a single loop) instead of the generic path (signals.ts, simulate.ts, metrics.ts). Same output, byte for
 * byte; a fused run returns null to leave a case to the generic path.
 */
import { FRICTIONLESS_MODEL, type ExecutionModel } from '../execution/model.js';
import type { BacktestRun, BarSeries, ResolvedParameters } from '../types.js';
import type { FusedAccount } from './account.js';
import { bollingerReversionRun } from './bollinger-reversion.js';
import { donchianBreakoutRun } from './donchian-breakout.js';
import { buyAndHoldRun } from './buy-and-hold.js';
import { emaCrossoverRun } from './ema-crossover.js';
import { macdCrossoverRun } from './macd-crossover.js';
import { rsiReversionRun } from './rsi-reversion.js';
import { smaCrossoverRun } from './sma-crossover.js';

export type FusedRun = (bars: BarSeries, params: ResolvedParameters, initialCapital: number, model?: ExecutionModel) => BacktestRun | null;

/**
 * A template's pass returns its account and the run is finished here, not at the end of the pass: V8 compiles a
 * long loop on stack (OSR) during the first call, before the code after the loop has run, and a property access
 * there without type feedback (`account.finish`) made that code deoptimize on every later call, which left some
 * processes running the loops 2–4× slower (docs/benchmarks.md).
 */
const finished =
  (pass: (bars: BarSeries, params: ResolvedParameters, initialCapital: number, model: ExecutionModel) => FusedAccount | null): FusedRun =>
  (bars, params, initialCapital, model = FRICTIONLESS_MODEL) =>
    pass(bars, params, initialCapital, model)?.finish() ?? null;

export const FUSED_RUNS: Readonly<Record<string, FusedRun>> = {
  buy_and_hold: finished(buyAndHoldRun),
  sma_crossover: finished(smaCrossoverRun),
  ema_crossover: finished(emaCrossoverRun),
  macd_crossover: finished(macdCrossoverRun),
  rsi_reversion: finished(rsiReversionRun),
  bollinger_reversion: finished(bollingerReversionRun),
  donchian_breakout: finished(donchianBreakoutRun),
};
