/**
 * Parameter sweeps and walk-forward tests (issue 18), pure: plan a grid, run its cells, rank them, check the best
 * out of sample. The service runs the cells on worker threads through `RunCells`. docs/backtesting.md
 * "Parameter sweeps and walk-forward".
 */
export { MAX_SWEEP_CELLS, planSweep, type GridAxisSpec, type GridSpec, type SweepPlan } from './grid.js';
export { SWEEP_OBJECTIVES, bestCellIndex, isThin, type CellMetrics, type SweepObjective } from './cell-metrics.js';
export { sweepCells } from './sweep-cells.js';
export { runSweep, type RunCells, type SweepInput, type SweepOutcome, type WalkForwardWindowResult } from './run-sweep.js';
export { walkForwardWindows, splitIndex, sliceBars, type SweepValidation, type BarRange, type WalkForwardWindow } from './validation.js';
