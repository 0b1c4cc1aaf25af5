/** The benchmark beside a backtest and the strategy's alpha, beta and information ratio against it. Pure. */
export { benchmarkRun, type BenchmarkBars, type BenchmarkRun } from './benchmark-curve.js';
export { relativeMetrics, dailyReturns, type RelativeMetrics } from './relative-metrics.js';
