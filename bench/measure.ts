/** Timing helpers shared by the in-process benchmarks (engine, grammar). */

/** Wall-clock milliseconds `fn` took. */
export function time(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** CPU milliseconds this process spent in `fn` (user + system): time on a core, not time waiting for one. */
export function cpuTime(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Median, 95th percentile and best of the samples. */
export function summary(samples: number[]): { median: number; p95: number; min: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p95: at(0.95), min: sorted[0]! };
}

export const round = (value: number, digits = 3) => Number(value.toFixed(digits));
