/**
 * The JSON bodies of POST /api/backtest ("Legacy backtest result") and POST /api/compare-strategies ("Comparison
 * result"), shaped in one place with the contract's field order. Numbers are rounded here, at output
 * (docs/backtesting.md "Output precision"): money to the cent, fractions and ratios to 8 decimals, prices, share
 * counts, trade counts and durations as they are; the engine computes every metric from unrounded values. The
 * engine's arithmetic runs in a fixed order, so the same request gives byte-identical JSON.
 */
import {
  defaultParameters,
  fractionArray,
  oneShareAt,
  moneyArray,
  roundFraction,
  roundFractionOrNull,
  roundMoney,
  roundMoneyOrNull,
  runTemplateBacktest,
  type BacktestMetrics,
  type BacktestRun,
  type BacktestTrade,
  type BarSeries,
  type StrategyTemplate,
  type UnfilledEntries,
} from '../engine/index.js';
import type { DataFeed } from '../market/market-terms.js';
import type { BacktestReport } from '../engine/report/index.js';
import type { CostsPaid, ExecutionSettings, Sizing } from '../engine/execution/settings.js';
import type { BenchmarkRun } from '../engine/benchmark/index.js';
import { roundedCostsPaid, roundedRelative, type BacktestExtras, type BenchmarkBlock, type ExecutionEcho, type RoundedRelative } from './execution-result.js';

type MetricsWithoutFinal = Omit<BacktestMetrics, 'final_capital'>;

/**
 * Field order is the contract's, set by `legacyBacktestResult`; the metrics are the engine's own. A request that
 * named an execution setting also gets the `BacktestExtras` (execution-result.ts), after the fields of the contract.
 */
export interface LegacyBacktestResult extends MetricsWithoutFinal, Partial<BacktestExtras> {
  symbol: string;
  strategy_name: string;
  start_date: string;
  end_date: string;
  initial_capital: number;
  final_capital: number;
  data_feed: DataFeed;
  dates: string[];
  equity_curve: number[];
  drawdowns: number[];
  trades: LegacyTrade[];
  /** Only when the strategy signalled entries and none could be filled (docs/backtesting.md, "No fill"). */
  unfilled_signals?: UnfilledSignals;
  /** Only with `report: true` (report-result.ts). */
  report?: BacktestReport;
}

/** A trade of the legacy body: the engine's, `commission` and `exit_reason` listed only when a request names execution settings (issue 25). */
export type LegacyTrade = Omit<BacktestTrade, 'commission' | 'exit_reason'> & Partial<Pick<BacktestTrade, 'commission' | 'exit_reason'>>;

export interface UnfilledSignals {
  count: number;
  /** YYYY-MM-DD of the first attempted fill (left out when the run has trades: some entries were filled). */
  first_fill_date?: string;
  /** The open of that bar: the price of one share, as stored (left out with first_fill_date). */
  share_price?: number;
  message: string;
}

export interface ComparisonEntry extends MetricsWithoutFinal, Partial<RoundedRelative> {
  id: string;
  name: string;
  equity_curve: number[];
  costs_paid?: CostsPaid;
}

export interface ComparisonResult {
  symbol: string;
  start_date: string;
  end_date: string;
  initial_capital: number;
  data_feed: DataFeed;
  dates: string[];
  strategies: ComparisonEntry[];
  costs?: ExecutionEcho['costs'];
  sizing?: ExecutionEcho['sizing'];
  exits?: ExecutionEcho['exits'];
  benchmark?: BenchmarkBlock;
}

export interface LegacyBacktestInput {
  readonly symbol: string;
  /** The template's display name. */
  readonly strategyName: string;
  /** The requested range as ISO 8601 UTC timestamps (normalized by the caller, e.g. Date#toISOString()). */
  readonly startDate: string;
  readonly endDate: string;
  readonly initialCapital: number;
  readonly dataFeed: DataFeed;
  /** The bar dates the run covered, 'YYYY-MM-DD', aligned with run.equity. */
  readonly dates: readonly string[];
  readonly run: BacktestRun;
}

export function legacyBacktestResult(input: LegacyBacktestInput): LegacyBacktestResult {
  return {
    ...legacyBacktestHead(input),
    dates: [...input.dates],
    equity_curve: moneyArray(input.run.equity),
    drawdowns: fractionArray(input.run.drawdowns),
  };
}

/**
 * The result with its three bar-aligned arrays left empty: `backtestBodyBytes` writes them from the run. `costed`:
 * the request named an execution setting, so each trade carries its commission and each SELL its exit reason.
 */
export function legacyBacktestHead(input: LegacyBacktestInput, costed = false): LegacyBacktestResult {
  const { run } = input;
  const m = run.metrics;
  return {
    symbol: input.symbol,
    strategy_name: input.strategyName,
    start_date: input.startDate,
    end_date: input.endDate,
    // As the request gave it: an echo of the input (equity_curve[0] is the same amount to the cent).
    initial_capital: input.initialCapital,
    final_capital: roundMoney(m.final_capital),
    data_feed: input.dataFeed,
    total_return: roundFraction(m.total_return),
    annualized_return: roundFractionOrNull(m.annualized_return),
    max_drawdown: roundFraction(m.max_drawdown),
    win_rate: roundFractionOrNull(m.win_rate),
    sharpe_ratio: roundFractionOrNull(m.sharpe_ratio),
    profit_factor: roundFractionOrNull(m.profit_factor),
    ...closedTradeMetrics(m),
    dates: [],
    equity_curve: [],
    drawdowns: [],
    trades: run.trades.map((t) => legacyTrade(t, costed)),
  };
}

function legacyTrade(t: BacktestTrade, costed: boolean): LegacyTrade {
  const trade: LegacyTrade = {
    date: t.date,
    type: t.type,
    price: t.price,
    shares: t.shares,
    value: roundMoney(t.value),
    pnl: roundMoneyOrNull(t.pnl),
    return: roundFractionOrNull(t.return),
    duration: t.duration,
  };
  if (costed) {
    trade.commission = roundMoney(t.commission);
    if (t.type === 'SELL' && t.exit_reason !== undefined) trade.exit_reason = t.exit_reason;
  }
  return trade;
}

/**
 * Why a run with entry signals has no trades: one share cost more than the capital at every attempted fill. The
 * message names the first of those fills, where the price was first too high. With `settings` (the request named
 * execution settings) the share's cost is its fill price plus its commission, and the budget the sizing's.
 */
export function unfilledSignals(symbol: string, bars: BarSeries, entries: UnfilledEntries, initialCapital: number, settings?: ExecutionSettings): UnfilledSignals {
  const price = bars.open[entries.firstFillBar]!;
  const times = entries.count === 1 ? 'once' : `${entries.count.toLocaleString('en-US')} times`;
  const share = settings && oneShareAt(bars, entries.firstFillBar, settings);
  const cost = share ? `${dollars(share.cost)} with slippage and commission` : dollars(price);
  return {
    count: entries.count,
    first_fill_date: bars.dates[entries.firstFillBar]!,
    share_price: price,
    message:
      `The strategy signalled ${times} but no signal could be filled: one share of ${symbol} cost ${cost} at the first fill, ` +
      `more than ${settings ? budgetOf(settings.sizing, initialCapital) : `the ${dollars(initialCapital)} capital`}.`,
  };
}

/** A run with trades whose other entries found too little cash or budget for one share (only when settings are named). */
export function partlyUnfilledSignals(count: number): UnfilledSignals {
  const signals = count === 1 ? 'One entry signal' : `${count.toLocaleString('en-US')} entry signals`;
  return { count, message: `${signals} could not be filled: the cash or the sizing's budget was less than one share and its commission.` };
}

function budgetOf(sizing: Sizing, initialCapital: number): string {
  switch (sizing.mode) {
    case 'percent_of_equity':
      return `the budget of ${(sizing.value * 100).toLocaleString('en-US', { maximumFractionDigits: 6 })} % of the equity`;
    case 'fixed_amount':
      return `the ${dollars(sizing.value)} budget`;
    default:
      return `the ${dollars(initialCapital)} capital`;
  }
}

function dollars(amount: number): string {
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;
}

/**
 * One entry of a comparison: the metrics and the equity curve, no trades and no drawdowns; with a `benchmark` (the
 * request named an execution setting) also what the costs took and the entry's alpha, beta and information ratio.
 */
export function comparisonEntry(template: StrategyTemplate, run: BacktestRun, benchmark?: BenchmarkRun): ComparisonEntry {
  const m = run.metrics;
  const entry: ComparisonEntry = {
    id: template.id,
    name: template.name,
    equity_curve: moneyArray(run.equity),
    ...roundedRatios(m),
    ...closedTradeMetrics(m),
  };
  return benchmark ? { ...entry, costs_paid: roundedCostsPaid(run.costs_paid), ...roundedRelative(run.equity, benchmark) } : entry;
}

export interface ComparisonInput {
  readonly symbol: string;
  readonly startDate: string;
  readonly endDate: string;
  readonly initialCapital: number;
  readonly dataFeed: DataFeed;
  readonly dates: readonly string[];
  readonly strategies: readonly ComparisonEntry[];
}

export function comparisonResult(input: ComparisonInput): ComparisonResult {
  return {
    symbol: input.symbol,
    start_date: input.startDate,
    end_date: input.endDate,
    initial_capital: input.initialCapital,
    data_feed: input.dataFeed,
    dates: [...input.dates],
    strategies: [...input.strategies],
  };
}

/**
 * The comparison entries for the given templates, each run with its default parameters, in the given order; with
 * `execution`, each run with its settings and measured against its benchmark.
 */
export function compareTemplates(
  bars: BarSeries,
  templates: readonly StrategyTemplate[],
  initialCapital: number,
  execution?: { readonly settings: ExecutionSettings; readonly benchmark: BenchmarkRun },
): ComparisonEntry[] {
  return templates.map((template) =>
    comparisonEntry(template, runTemplateBacktest(bars, template, defaultParameters(template), initialCapital, execution?.settings), execution?.benchmark),
  );
}

/** The return and risk ratios of a run, in the order comparison entries and sweep cells list them: 8 decimals. */
export function roundedRatios(
  m: Pick<BacktestMetrics, 'total_return' | 'annualized_return' | 'sharpe_ratio' | 'max_drawdown' | 'win_rate' | 'profit_factor'>,
) {
  return {
    total_return: roundFraction(m.total_return),
    annualized_return: roundFractionOrNull(m.annualized_return),
    sharpe_ratio: roundFractionOrNull(m.sharpe_ratio),
    max_drawdown: roundFraction(m.max_drawdown),
    win_rate: roundFractionOrNull(m.win_rate),
    profit_factor: roundFractionOrNull(m.profit_factor),
  };
}

/** The closed-trade statistics, in the order both bodies list them: counts as they are, money to the cent, the mean holding period to 8 decimals. */
function closedTradeMetrics(m: BacktestMetrics) {
  return {
    total_trades: m.total_trades,
    winning_trades: m.winning_trades,
    losing_trades: m.losing_trades,
    avg_profit: roundMoneyOrNull(m.avg_profit),
    avg_loss: roundMoneyOrNull(m.avg_loss),
    avg_holding_days: roundFractionOrNull(m.avg_holding_days),
  };
}
