/**
 * The fields a backtest answer gains when its request named an execution setting (execution.schema.ts), rounded at
 * output as the rest of the body (docs/backtesting.md "Output precision"): money to the cent, fractions and ratios to
 * 8 decimals, the settings echoed as used.
 */
import { moneyArray, roundFraction, roundFractionOrNull, roundMoney } from '../engine/index.js';
import { relativeMetrics, type BenchmarkRun } from '../engine/benchmark/index.js';
import type { CostsPaid, ExecutionSettings, Exits, Sizing } from '../engine/execution/settings.js';

export interface ExecutionEcho {
  costs: ExecutionSettings['costs'];
  sizing: { mode: Sizing['mode']; value?: number };
  exits: Exits;
}

/** The settings as the run used them, every field filled in. */
export function executionEcho(settings: ExecutionSettings): ExecutionEcho {
  const { costs, sizing, exits } = settings;
  return {
    costs: {
      commission_per_share: costs.commission_per_share,
      commission_pct: costs.commission_pct,
      commission_min: costs.commission_min,
      slippage_bps: costs.slippage_bps,
      commission_per_contract: costs.commission_per_contract,
    },
    sizing: sizing.mode === 'all_in' ? { mode: 'all_in' } : { mode: sizing.mode, value: sizing.value },
    exits: { stop_loss_pct: exits.stop_loss_pct, take_profit_pct: exits.take_profit_pct, trailing_stop_pct: exits.trailing_stop_pct },
  };
}

export function roundedCostsPaid(paid: CostsPaid): CostsPaid {
  return { commission: roundMoney(paid.commission), slippage: roundMoney(paid.slippage) };
}

export interface BenchmarkSummary {
  symbol: string;
  total_return: number;
  annualized_return: number | null;
  max_drawdown: number;
  sharpe_ratio: number | null;
}

export interface BenchmarkBlock extends BenchmarkSummary {
  equity_curve: number[];
}

/** The benchmark's metrics, without its curve (the sweep's). */
export function benchmarkSummary(symbol: string, run: BenchmarkRun): BenchmarkSummary {
  return {
    symbol,
    total_return: roundFraction(run.total_return),
    annualized_return: roundFractionOrNull(run.annualized_return),
    max_drawdown: roundFraction(run.max_drawdown),
    sharpe_ratio: roundFractionOrNull(run.sharpe_ratio),
  };
}

export function benchmarkBlock(symbol: string, run: BenchmarkRun): BenchmarkBlock {
  return { ...benchmarkSummary(symbol, run), equity_curve: moneyArray(run.equity) };
}

export interface RoundedRelative {
  alpha: number | null;
  beta: number | null;
  information_ratio: number | null;
}

/** alpha, beta and the information ratio of a strategy's equity against the benchmark's, 8 decimals. */
export function roundedRelative(equity: Float64Array, benchmark: BenchmarkRun): RoundedRelative {
  const m = relativeMetrics(equity, benchmark.equity);
  return { alpha: roundFractionOrNull(m.alpha), beta: roundFractionOrNull(m.beta), information_ratio: roundFractionOrNull(m.information_ratio) };
}

/** What a single backtest's answer (legacy or library) adds after its own fields, in this order. */
export interface BacktestExtras extends ExecutionEcho, RoundedRelative {
  costs_paid: CostsPaid;
  benchmark: BenchmarkBlock;
}

export function backtestExtras(settings: ExecutionSettings, costsPaid: CostsPaid, equity: Float64Array, benchmarkSymbol: string, benchmark: BenchmarkRun): BacktestExtras {
  return {
    ...executionEcho(settings),
    costs_paid: roundedCostsPaid(costsPaid),
    benchmark: benchmarkBlock(benchmarkSymbol, benchmark),
    ...roundedRelative(equity, benchmark),
  };
}
