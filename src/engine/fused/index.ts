/**
 * Templates that run as one fused pass (indicators, signals, fills, equity, drawdowns and the metrics' running
 * sums in a single loop) instead of the generic path (signals.ts, simulate.ts, metrics.ts). Same output, byte for
 * byte; a fused run returns null to leave a case to the generic path.
 */
import type { BacktestRun, BarSeries, ResolvedParameters } from '../types.js';
import { bollingerReversionRun } from './bollinger-reversion.js';
import { donchianBreakoutRun } from './donchian-breakout.js';
import { buyAndHoldRun } from './buy-and-hold.js';
import { emaCrossoverRun } from './ema-crossover.js';
import { macdCrossoverRun } from './macd-crossover.js';
import { rsiReversionRun } from './rsi-reversion.js';
import { smaCrossoverRun } from './sma-crossover.js';

export type FusedRun = (bars: BarSeries, params: ResolvedParameters, initialCapital: number) => BacktestRun | null;

export const FUSED_RUNS: Readonly<Record<string, FusedRun>> = {
  buy_and_hold: buyAndHoldRun,
  sma_crossover: smaCrossoverRun,
  ema_crossover: emaCrossoverRun,
  macd_crossover: macdCrossoverRun,
  rsi_reversion: rsiReversionRun,
  bollinger_reversion: bollingerReversionRun,
  donchian_breakout: donchianBreakoutRun,
};
