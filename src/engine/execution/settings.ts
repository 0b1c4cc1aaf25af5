/**
 * The execution settings every backtest takes (DESIGN.md "Execution model"; docs/backtesting.md "Costs, sizing and
 * exits"): what a fill costs, how much a buy commits, and the exits checked on each close. Pure data. The routes
 * validate a request's fields and map them to these; `FRICTIONLESS` is what a request naming none of them runs.
 */

/** Each ≥ 0. `commission_pct` is a fraction of a fill's value; `slippage_bps` at most 1,000; per contract for options legs. */
export interface Costs {
  readonly commission_per_share: number;
  readonly commission_pct: number;
  readonly commission_min: number;
  readonly slippage_bps: number;
  readonly commission_per_contract: number;
}

/**
 * `all_in`: the largest whole q with q × p + commission(q) ≤ cash. `percent_of_equity` (0 < value ≤ 1): a budget of
 * value × the equity at the signal's close. `fixed_amount`: a budget of `value` dollars. `fixed_shares`: `value`
 * shares, or as many as the cash affords. A budget never exceeds the cash.
 */
export type Sizing =
  | { readonly mode: 'all_in' }
  | { readonly mode: 'percent_of_equity'; readonly value: number }
  | { readonly mode: 'fixed_amount'; readonly value: number }
  | { readonly mode: 'fixed_shares'; readonly value: number };

/** Fractions of the entry fill price; null = no such exit. stop_loss_pct < 0, take_profit_pct > 0, trailing_stop_pct > 0. */
export interface Exits {
  readonly stop_loss_pct: number | null;
  readonly take_profit_pct: number | null;
  readonly trailing_stop_pct: number | null;
}

export interface ExecutionSettings {
  readonly costs: Costs;
  readonly sizing: Sizing;
  readonly exits: Exits;
}

/** Why a template's SELL happened. */
export type TemplateExitReason = 'signal' | 'stop_loss' | 'trailing_stop' | 'take_profit' | 'end_of_period';

/** The reasons by a small code (a fill column's byte): index 0 is 'signal'. */
export const EXIT_REASONS: readonly TemplateExitReason[] = Object.freeze(['signal', 'stop_loss', 'trailing_stop', 'take_profit', 'end_of_period'] as const);
export const SIGNAL = 0;
export const STOP_LOSS = 1;
export const TRAILING_STOP = 2;
export const TAKE_PROFIT = 3;
export const END_OF_PERIOD = 4;

/** Σ commissions, and Σ |fill − reference| × q (the reference being the open, or the last close for the sale at the end). */
export interface CostsPaid {
  readonly commission: number;
  readonly slippage: number;
}

export const NO_COSTS: Costs = Object.freeze({
  commission_per_share: 0,
  commission_pct: 0,
  commission_min: 0,
  slippage_bps: 0,
  commission_per_contract: 0,
});

export const NO_EXITS: Exits = Object.freeze({ stop_loss_pct: null, take_profit_pct: null, trailing_stop_pct: null });

/** What a backtest that names no execution setting runs: free fills at the open, all in, no exits. */
export const FRICTIONLESS: ExecutionSettings = Object.freeze({ costs: NO_COSTS, sizing: Object.freeze({ mode: 'all_in' }), exits: NO_EXITS });

export const NO_COSTS_PAID: CostsPaid = Object.freeze({ commission: 0, slippage: 0 });
