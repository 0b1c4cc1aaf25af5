/** The options replay's running account, shared by the replay loop and the opening of a position. */
import type { OptionsReplayInput, OptionsReplaySettings, OptionsReplayStrategy, OptionsTrade } from './replay-types.js';

/** The replay's running account: cash as an integer number of cents moved since the start (exact). */
export interface OptionsBook {
  readonly input: OptionsReplayInput;
  readonly strategy: OptionsReplayStrategy;
  readonly settings: OptionsReplaySettings;
  readonly credit: boolean;
  readonly startingCapital: number;
  cashChangeCents: number;
  commissionCents: number;
  spreadPaid: number;
  readonly trades: OptionsTrade[];
  readonly skipped: { credit_below_minimum: number; no_contract_affordable: number };
}

/** The cash in dollars. */
export function cashOf(book: OptionsBook): number {
  return book.startingCapital + book.cashChangeCents / 100;
}
