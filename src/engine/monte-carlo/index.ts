export { monteCarlo, MAX_BAND_POINTS, type EquityBands, type MonteCarloInput, type MonteCarloResult, type ResampleMethod } from './monte-carlo.js';
export { percentileOfSorted, percentilesOf, PERCENTILES, type Percentiles } from './percentile.js';
export { Xoshiro128, splitMix64 } from './prng.js';
