import { DEFAULT_EXECUTION_INPUTS, EXECUTION_ADDRESS_KEYS, readExecutionQuery, writeExecutionQuery, type ExecutionInputs } from './execution-inputs';
import { DEFAULT_MARKET_INPUTS, type MarketInputs } from './market-inputs';
import type { ParameterInputs } from './template-parameters';
import type { DataFeed, StrategyTemplate } from './types';

/**
 * One backtest as the lab's address carries it: what `/?symbol=…&strategy=…&<param>=<value>&slippage_bps=…` asks
 * the lab to run. The execution settings are written only where they differ from the defaults.
 */
export interface LabRun {
  readonly market: MarketInputs;
  readonly strategy: string;
  readonly params: Readonly<Record<string, number>>;
  readonly execution?: ExecutionInputs;
}

const FEEDS: readonly DataFeed[] = ['delayed_sip', 'sip'];
/** Keys no template parameter can take over in an address. */
const RESERVED_KEYS = ['symbol', 'strategy', 'start_date', 'end_date', 'initial_capital', 'data_feed', ...EXECUTION_ADDRESS_KEYS];

/** The lab's address for one backtest; the feed is named only when it is not the default. */
export function labHref(run: LabRun): string {
  const query = new URLSearchParams({
    symbol: run.market.symbol.trim().toUpperCase(),
    strategy: run.strategy,
    start_date: run.market.start_date,
    end_date: run.market.end_date,
    initial_capital: String(Number(run.market.initial_capital)),
  });
  if (run.market.data_feed !== DEFAULT_MARKET_INPUTS.data_feed) query.set('data_feed', run.market.data_feed);
  for (const [name, value] of Object.entries(run.params)) query.set(name, String(value));
  writeExecutionQuery(query, run.execution ?? DEFAULT_EXECUTION_INPUTS);
  return `/?${query.toString()}`;
}

/**
 * The lab form prefilled from its address, or undefined when the address asks for nothing (no `strategy`) or
 * for a template the catalogue does not have. Missing market fields keep the defaults and missing parameters the
 * template's defaults; what is there is shown as written, and the lab's checks judge it before running.
 */
export function labPrefill(
  query: URLSearchParams,
  templates: readonly StrategyTemplate[],
): { market: MarketInputs; template: StrategyTemplate; parameters: ParameterInputs; execution: ExecutionInputs } | undefined {
  const template = templates.find((candidate) => candidate.id === query.get('strategy'));
  if (!template) return undefined;
  const read = (key: string, fallback: string) => query.get(key) ?? fallback;
  const feed = query.get('data_feed');
  const market: MarketInputs = {
    symbol: read('symbol', DEFAULT_MARKET_INPUTS.symbol),
    start_date: read('start_date', DEFAULT_MARKET_INPUTS.start_date),
    end_date: read('end_date', DEFAULT_MARKET_INPUTS.end_date),
    initial_capital: read('initial_capital', DEFAULT_MARKET_INPUTS.initial_capital),
    data_feed: FEEDS.find((candidate) => candidate === feed) ?? DEFAULT_MARKET_INPUTS.data_feed,
  };
  const parameters = Object.fromEntries(
    template.parameters.map((parameter) => [parameter.name, RESERVED_KEYS.includes(parameter.name) ? String(parameter.default) : read(parameter.name, String(parameter.default))]),
  );
  return { market, template, parameters, execution: readExecutionQuery(query) };
}
