/** The options replay's running account, shared by the replay loop and the opening of a position. */
import type { OptionsReplay, OptionsReplayInput, OptionsReplaySettings, OptionsReplayStrategy, OptionsTrade } from './replay-types.js';

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
  readonly skipped: OptionsReplay['skipped_entries'];
}

/** The cash in dollars. */
export function cashOf(book: OptionsBook): number {
  return book.startingCapital + book.cashChangeCents / 100;
}

/** A new account for one replay: nothing moved, nothing paid, nothing skipped. */
export function newBook(input: OptionsReplayInput, strategy: OptionsReplayStrategy, settings: OptionsReplaySettings, credit: boolean, startingCapital: number): OptionsBook {
  return {
    input,
    strategy,
    settings,
    credit,
    startingCapital,
    cashChangeCents: 0,
    commissionCents: 0,
    spreadPaid: 0,
    trades: [],
    skipped: { credit_below_minimum: 0, no_contract_affordable: 0, no_volatility: 0 },
  };
}
