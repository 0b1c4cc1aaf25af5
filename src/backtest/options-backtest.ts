/**
 * POST /api/backtest/run for an `iron_condor` or `vertical_spread` strategy (docs/backtesting.md "Library backtest",
 * "Options backtests (modeled prices)"): one underlying, its legs priced by the model in src/engine/options/. Reads
 * the strategy's spec, the underlying's bars and the volatility index's, evaluates the rules as the equity path does
 * (library-inputs.ts), and hands the rest to `replayOptionsStrategy`.
 */
import { NotFound, Unprocessable, AppError } from '../platform/errors.js';
import type { Period } from '../market/market-terms.js';
import type { MarketData } from '../market/market-data.service.js';
import type { StrategyRow } from '../strategies/strategies.repo.js';
import { isOptionsStrategyType, parseOptionsSpec } from '../strategies/options-spec.js';
import { allowedSymbols } from '../strategies/strategy-policy.js';
import { replayOptionsStrategy } from '../engine/options/replay.js';
import type { OptionsReplayStrategy, OptionsReplaySettings } from '../engine/options/replay-types.js';
import { benchmarkRun } from '../engine/benchmark/index.js';
import { benchmarkBars, type LoadedBenchmark } from './benchmark-bars.js';
import { backtestBodyBytes } from './backtest-body.js';
import { executionKey, type RequestedExecution } from './execution-request.js';
import { reportKey, roundedReport } from './report-result.js';
import { backtestExtras } from './execution-result.js';
import { refusedByEngine } from './engine-refusal.js';
import { barsOf, compiled, libraryBenchmark, signalsOf, symbolsToReplay } from './library-inputs.js';
import { optionsBacktestHead, type OptionsBacktestBody } from './options-backtest-result.js';
import { volatilityColumn } from './volatility-column.js';
import { DEFAULT_STARTING_CAPITAL, type LibraryBacktestRequest } from './library-backtest.schema.js';
import type { ResponseCache } from './response-cache.js';

export interface OptionsBacktestDeps {
  readonly marketData: MarketData;
  readonly responses: ResponseCache;
  readonly optionsRiskFreeRate: number;
}

/** What the library route has checked before it read the strategy. */
export interface OptionsRunRequest {
  readonly request: LibraryBacktestRequest;
  readonly period: Period;
  /** The request's symbols (checked as tickers, each once), or null when it names none. */
  readonly requested: string[] | null;
  readonly execution: RequestedExecution;
}

/** The body of an options strategy's run, cached like the equity replay's under a key of everything it depends on. */
export async function optionsBacktestBody(
  deps: OptionsBacktestDeps,
  strategy: StrategyRow,
  { request, period, requested, execution }: OptionsRunRequest,
  serialize: (result: OptionsBacktestBody) => string,
): Promise<Buffer> {
  const replay = optionsStrategyOf(strategy);
  refuseEquitySettings(request);
  const symbol = underlyingOf(allowedSymbols(strategy), requested);
  const entryRule = compiled('entry_rule', strategy.entry_rule);
  const exitRule = compiled('exit_rule', strategy.exit_rule);
  const underlying = { symbol, ...(await barsOf(deps.marketData, symbol, period)) };
  const index = strategy.volatility_symbol === null ? null : await volatilityIndex(deps.marketData, strategy.volatility_symbol, underlying.series.dates);
  const capital = request.starting_capital ?? DEFAULT_STARTING_CAPITAL;
  const settings: OptionsReplaySettings = { commissionPerContract: execution.settings.costs.commission_per_contract, rate: deps.optionsRiskFreeRate };
  const benchmark = execution.named ? await libraryBenchmark(deps.marketData, execution.benchmark, [underlying]) : null;
  const key = JSON.stringify([
    'library-options',
    Number(strategy.id),
    replay,
    strategy.entry_rule,
    strategy.exit_rule,
    [symbol, underlying.version],
    index === null ? null : [index.symbol, index.version],
    period.from,
    period.to,
    capital,
    settings,
    ...executionKey(execution, benchmark),
    ...reportKey(request),
  ]);
  return deps.responses.getOrCreate(key, async () => {
    const { series } = underlying;
    const [entry, exit] = signalsOf(series, entryRule, exitRule);
    const result = refusedByEngine(() => replayOptionsStrategy(
      {
        symbol,
        bars: series,
        entry: entry ?? null,
        exit: exit ?? null,
        volatility: index === null ? null : volatilityColumn(series.dates, index.bars),
        volatilitySymbol: index?.symbol ?? null,
      },
      replay,
      settings,
      capital,
    ));
    const head = optionsBacktestHead(Number(strategy.id), result, execution.named);
    if (benchmark) {
      const equity = Float64Array.from(result.equity_curve);
      const benchmarked = refusedByEngine(() => benchmarkRun(benchmark.symbol, result.dates, benchmark.bars, capital));
      // Sizing and exits are equity settings (refused above): the echo carries the costs only.
      const { sizing: _sizing, exits: _exits, ...extras } = backtestExtras(execution.settings, result.costs_paid, equity, benchmark.symbol, benchmarked);
      Object.assign(head, extras);
    }
    if (request.report) head.report = roundedReport({ dates: series.dates, equity: result.equity_curve, initialCapital: capital, trades: result.trades });
    return backtestBodyBytes(head, { dates: series.dates, equity: result.equity_curve, drawdowns: result.drawdowns }, serialize);
  });
}

/** The stored strategy as the options replay takes it; 422 `options_spec_required` without a spec. */
function optionsStrategyOf(strategy: StrategyRow): OptionsReplayStrategy {
  const spec = parseOptionsSpec(strategy.options_spec);
  const type = strategy.strategy_type;
  if (!isOptionsStrategyType(type)) throw new Error(`${type} is not an options strategy type`);
  if (spec === null) {
    throw new Unprocessable(
      'options_spec_required',
      `This ${type} strategy has no options_spec, so there are no legs to price: edit the strategy and give its spec (short delta or percent out of the money, width, days to expiry).`,
      [{ field: 'options_spec', message: 'is required to backtest an options strategy' }],
    );
  }
  if (strategy.exit_max_dte !== null && strategy.exit_max_dte >= spec.dte) {
    throw new Unprocessable(
      'exit_max_dte_not_below_dte',
      `exit_max_dte (${strategy.exit_max_dte}) is not below the spec's ${spec.dte} days to expiry: every position would be closed on the close after it opened, paying the spread twice. Lower exit_max_dte or raise the spec's dte.`,
      [{ field: 'exit_max_dte', message: `must be below the options spec's dte (${spec.dte})` }],
    );
  }
  return {
    type,
    spec,
    maxPositionSize: strategy.entry_max_position_size,
    creditMinAmount: strategy.credit_min_amount,
    profitTargetPct: strategy.exit_profit_target_pct,
    stopLossPct: strategy.exit_stop_loss_pct,
    exitMaxDte: strategy.exit_max_dte,
  };
}

/**
 * `sizing` and `exits` are equity settings (shares, fractions of a share price): an options position is sized by its
 * maximum loss and exits on fractions of its credit, both from the strategy. Naming either is a 422 rather than a
 * setting silently ignored.
 */
function refuseEquitySettings(request: LibraryBacktestRequest): void {
  for (const field of ['sizing', 'exits'] as const) {
    if (request[field] !== undefined) {
      throw new Unprocessable(
        'unsupported_for_options',
        `"${field}" does not apply to an options strategy: it is sized by the structure's maximum loss (under entry_max_position_size) and exits on the strategy's own profit target, stop loss and exit_max_dte. Leave "${field}" out.`,
        [{ field: `body.${field}`, message: 'does not apply to an options strategy' }],
      );
    }
  }
}

/**
 * The one underlying the options replay runs on: the request's symbol (within the allowlist, if any), else the
 * allowlist's only symbol. More than one: 422 `one_underlying`.
 */
function underlyingOf(allowlist: string[] | null, requested: string[] | null): string {
  if (requested !== null && requested.length > 1) {
    throw oneUnderlying(`The request names ${requested.length} symbols (${requested.join(', ')})`);
  }
  if (requested === null && allowlist !== null && allowlist.length > 1) {
    throw oneUnderlying(`The strategy allows ${allowlist.length} symbols (${allowlist.join(', ')}); name one of them in "symbols"`);
  }
  return symbolsToReplay(allowlist, requested)[0]!;
}

function oneUnderlying(what: string): Unprocessable {
  return new Unprocessable('one_underlying', `${what}: an options backtest runs on one underlying.`, [{ field: 'body.symbols', message: 'must name one symbol for an options strategy' }]);
}

/** The volatility index's closes over the underlying's dates (benchmark-bars.ts reads them the same way); 404 `unknown_symbol`. */
async function volatilityIndex(marketData: MarketData, symbol: string, dates: readonly string[]): Promise<LoadedBenchmark> {
  try {
    return await benchmarkBars(marketData, symbol, dates, 'delayed_sip');
  } catch (error) {
    if (error instanceof AppError && error.code === 'unknown_symbol') {
      throw new NotFound('unknown_symbol', `We have no prices for the strategy's volatility_symbol ${symbol}: import its daily closes, or clear volatility_symbol to use realized volatility.`, [
        { field: 'volatility_symbol', message: 'has no stored prices and no provider knows it' },
      ]);
    }
    throw error;
  }
}
