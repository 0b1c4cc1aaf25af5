/**
 * The "Costs and sizing" part of the lab, comparison and Optimize forms: the execution settings every backtest
 * takes (docs/backtesting.md "Costs, sizing and exits"), as typed, checked and sent. Percentages are typed as
 * percents (10 = 10 %) and sent as fractions; the stop loss is typed as a positive loss and sent below 0.
 */
import type { Costs, Sizing } from '../../engine/execution/settings';

export type SizingMode = Sizing['mode'];

/** Every value as typed, so a half-typed number stays in its box; the keys are the form's control names. */
export interface ExecutionInputs {
  readonly commission_per_share: string;
  /** Percent of the fill's value: 0.1 = 0.1 %. */
  readonly commission_pct: string;
  readonly commission_min: string;
  readonly slippage_bps: string;
  readonly sizing_mode: SizingMode;
  /** Percent of equity (1–100), dollars or shares, by `sizing_mode`; unused for `all_in`. */
  readonly sizing_value: string;
  /** Percent below the entry fill, typed positive: 10 sells at −10 %. Empty: none. */
  readonly stop_loss_pct: string;
  readonly take_profit_pct: string;
  readonly trailing_stop_pct: string;
  /** A ticker; empty: the backtested symbol itself. */
  readonly benchmark: string;
}

type CostKey = 'commission_per_share' | 'commission_pct' | 'commission_min' | 'slippage_bps';
export const COST_KEYS: readonly CostKey[] = ['commission_per_share', 'commission_pct', 'commission_min', 'slippage_bps'];

export interface CostPreset {
  readonly id: string;
  readonly label: string;
  readonly costs: Readonly<Record<CostKey, string>>;
}

/** What a trader recognises; choosing one fills the four cost fields, which stay editable. */
export const COST_PRESETS: readonly CostPreset[] = [
  { id: 'none', label: 'No costs', costs: { commission_per_share: '0', commission_pct: '0', commission_min: '0', slippage_bps: '0' } },
  { id: 'discount', label: 'US discount broker: $0 commission, 5 bp slippage', costs: { commission_per_share: '0', commission_pct: '0', commission_min: '0', slippage_bps: '5' } },
  { id: 'per_share', label: 'Per share: $0.005, $1 minimum', costs: { commission_per_share: '0.005', commission_pct: '0', commission_min: '1', slippage_bps: '0' } },
  { id: 'flat', label: 'Flat $4.95 per order', costs: { commission_per_share: '0', commission_pct: '0', commission_min: '4.95', slippage_bps: '0' } },
];
export const CUSTOM_PRESET = 'custom';

export const DEFAULT_EXECUTION_INPUTS: ExecutionInputs = {
  ...COST_PRESETS[0]!.costs,
  sizing_mode: 'all_in',
  sizing_value: '',
  stop_loss_pct: '',
  take_profit_pct: '',
  trailing_stop_pct: '',
  benchmark: '',
};

export const SIZING_MODES: readonly { value: SizingMode; label: string }[] = [
  { value: 'all_in', label: 'All in: as many shares as the cash buys' },
  { value: 'percent_of_equity', label: 'Percent of equity' },
  { value: 'fixed_amount', label: 'Fixed amount ($)' },
  { value: 'fixed_shares', label: 'Fixed number of shares' },
];

/** The preset whose costs the fields hold (numerically: "0.50" is "0.5"), else `custom`. */
export function presetOf(inputs: ExecutionInputs): string {
  const same = (preset: CostPreset) => COST_KEYS.every((key) => inputs[key].trim() !== '' && Number(inputs[key]) === Number(preset.costs[key]));
  return COST_PRESETS.find(same)?.id ?? CUSTOM_PRESET;
}

export function withPreset(inputs: ExecutionInputs, id: string): ExecutionInputs {
  const preset = COST_PRESETS.find((candidate) => candidate.id === id);
  return preset ? { ...inputs, ...preset.costs } : inputs;
}

const TICKER = /^[A-Za-z0-9.^=-]{1,16}$/;

function numberOf(text: string): number | undefined {
  const value = Number(text);
  return text.trim() === '' || !Number.isFinite(value) ? undefined : value;
}

/** Client-side checks, keyed by control; the server checks everything again. */
export function checkExecutionInputs(inputs: ExecutionInputs): Record<string, string> {
  const errors: Record<string, string> = {};
  const within = (key: keyof ExecutionInputs, ok: (value: number) => boolean, message: string, optional = false) => {
    const text = inputs[key].trim();
    if (optional && text === '') return;
    const value = numberOf(text);
    if (value === undefined || !ok(value)) errors[key] = message;
  };
  within('commission_per_share', (v) => v >= 0 && v <= 1e12, 'Enter dollars per share, 0 or more.');
  within('commission_pct', (v) => v >= 0 && v <= 100, 'Enter a percentage from 0 to 100, such as 0.1.');
  within('commission_min', (v) => v >= 0 && v <= 1e12, 'Enter the least an order pays, 0 or more.');
  within('slippage_bps', (v) => v >= 0 && v <= 1000, 'Enter basis points from 0 to 1,000, such as 5.');
  if (inputs.sizing_mode === 'percent_of_equity') within('sizing_value', (v) => v > 0 && v <= 100, 'Enter a percentage above 0 and at most 100.');
  if (inputs.sizing_mode === 'fixed_amount') within('sizing_value', (v) => v > 0 && v <= 1e12, 'Enter an amount above $0.');
  if (inputs.sizing_mode === 'fixed_shares') within('sizing_value', (v) => Number.isInteger(v) && v >= 1 && v <= 1e9, 'Enter a whole number of shares, 1 or more.');
  within('stop_loss_pct', (v) => v > 0 && v < 100, 'Enter a percentage above 0 and below 100, such as 10.', true);
  within('take_profit_pct', (v) => v > 0 && v <= 100_000, 'Enter a percentage above 0, such as 20.', true);
  within('trailing_stop_pct', (v) => v > 0 && v < 100, 'Enter a percentage above 0 and below 100, such as 10.', true);
  if (inputs.benchmark.trim() !== '' && !TICKER.test(inputs.benchmark.trim())) errors.benchmark = 'Enter a ticker, such as SPY, or leave empty for the symbol itself.';
  return errors;
}

/** A typed percent as a fraction, without the binary noise of the division (14.1 → 0.141, not 0.14100000000000001). */
function fraction(percent: number): number {
  return Number((percent / 100).toPrecision(12));
}

function optionalFraction(text: string, sign: 1 | -1): number | null {
  const value = numberOf(text);
  return value === undefined ? null : sign * fraction(value);
}

export interface ExecutionRequest {
  costs: Omit<Costs, 'commission_per_contract'>;
  sizing: { mode: SizingMode; value?: number };
  exits: { stop_loss_pct: number | null; take_profit_pct: number | null; trailing_stop_pct: number | null };
  benchmark: string;
}

/** The request fields for checked inputs; the benchmark defaults to the backtested `symbol`. */
export function executionRequest(inputs: ExecutionInputs, symbol: string): ExecutionRequest {
  const value = numberOf(inputs.sizing_value);
  const sizing: ExecutionRequest['sizing'] =
    inputs.sizing_mode === 'all_in' || value === undefined
      ? { mode: 'all_in' }
      : { mode: inputs.sizing_mode, value: inputs.sizing_mode === 'percent_of_equity' ? fraction(value) : value };
  return {
    costs: {
      commission_per_share: Number(inputs.commission_per_share),
      commission_pct: fraction(Number(inputs.commission_pct)),
      commission_min: Number(inputs.commission_min),
      slippage_bps: Number(inputs.slippage_bps),
    },
    sizing,
    exits: {
      stop_loss_pct: optionalFraction(inputs.stop_loss_pct, -1),
      take_profit_pct: optionalFraction(inputs.take_profit_pct, 1),
      trailing_stop_pct: optionalFraction(inputs.trailing_stop_pct, 1),
    },
    benchmark: inputs.benchmark.trim().toUpperCase() || symbol.trim().toUpperCase(),
  };
}

/** The address keys of the settings: the control names, the sizing mode as `sizing`. */
const ADDRESS_KEYS: Readonly<Record<keyof ExecutionInputs, string>> = {
  commission_per_share: 'commission_per_share',
  commission_pct: 'commission_pct',
  commission_min: 'commission_min',
  slippage_bps: 'slippage_bps',
  sizing_mode: 'sizing',
  sizing_value: 'sizing_value',
  stop_loss_pct: 'stop_loss',
  take_profit_pct: 'take_profit',
  trailing_stop_pct: 'trailing_stop',
  benchmark: 'benchmark',
};
export const EXECUTION_ADDRESS_KEYS: readonly string[] = Object.values(ADDRESS_KEYS);

/** Writes the settings that differ from the defaults into an address's query, as typed (percents as percents). */
export function writeExecutionQuery(query: URLSearchParams, inputs: ExecutionInputs): void {
  for (const key of Object.keys(ADDRESS_KEYS) as (keyof ExecutionInputs)[]) {
    const value = inputs[key].trim();
    if (key === 'sizing_value' && inputs.sizing_mode === 'all_in') continue;
    if (value !== DEFAULT_EXECUTION_INPUTS[key]) query.set(ADDRESS_KEYS[key], key === 'benchmark' ? value.toUpperCase() : value);
  }
}

/** The settings an address names, the defaults for what it leaves out; the checks judge them before a run. */
export function readExecutionQuery(query: URLSearchParams): ExecutionInputs {
  const read = (key: keyof ExecutionInputs) => query.get(ADDRESS_KEYS[key]) ?? DEFAULT_EXECUTION_INPUTS[key];
  const mode = SIZING_MODES.find((choice) => choice.value === query.get(ADDRESS_KEYS.sizing_mode))?.value ?? 'all_in';
  return {
    commission_per_share: read('commission_per_share'),
    commission_pct: read('commission_pct'),
    commission_min: read('commission_min'),
    slippage_bps: read('slippage_bps'),
    sizing_mode: mode,
    sizing_value: read('sizing_value'),
    stop_loss_pct: read('stop_loss_pct'),
    take_profit_pct: read('take_profit_pct'),
    trailing_stop_pct: read('trailing_stop_pct'),
    benchmark: read('benchmark'),
  };
}
