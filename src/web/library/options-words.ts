import { fee } from '../lab/execution-words';
import { formatCount, formatMoney, formatPercent } from '../ui/format';
import type { BacktestAnswer, OptionLeg, OptionsBacktestResult, OptionsExitReason, OptionsPricing, OptionsSpec, VerticalStructure } from './types';

/**
 * What an options backtest says in words (pure, unit-tested in options-logic.test.ts): the structures, the exit
 * reasons, the legs, the skipped entries, and the note that the prices are modeled (DESIGN "Options strategies in
 * backtests (modeled prices)").
 */

/** An options replay's answer carries `pricing`; an equity replay's does not. */
export function isOptionsResult(result: BacktestAnswer): result is OptionsBacktestResult {
  return 'pricing' in result;
}

export const STRUCTURE_CHOICES: readonly { value: VerticalStructure; label: string }[] = [
  { value: 'put_credit', label: 'Put credit spread (sell a put, buy a lower one)' },
  { value: 'call_credit', label: 'Call credit spread (sell a call, buy a higher one)' },
  { value: 'put_debit', label: 'Put debit spread (buy a put, sell a lower one)' },
  { value: 'call_debit', label: 'Call debit spread (buy a call, sell a higher one)' },
];

/** A spec in the library list's words: "short delta 0.16, $10.00 wings, 45 days to expiry", a vertical's structure first. */
export function specSummary(spec: OptionsSpec, volatilitySymbol: string | null): string {
  const parts: string[] = [];
  if ('structure' in spec) parts.push(spec.structure.replace('_', ' '));
  parts.push(spec.short_delta !== undefined ? `short delta ${spec.short_delta}` : `short ${formatPercent(spec.short_otm_pct ?? null)} out of the money`);
  parts.push('wing_width' in spec ? `${formatMoney(spec.wing_width)} wings` : `${formatMoney(spec.width)} wide`);
  parts.push(`${spec.dte} days to expiry`);
  if (volatilitySymbol) parts.push(`volatility ${volatilitySymbol}`);
  return parts.join(', ');
}

const EXIT_REASONS: Readonly<Record<OptionsExitReason, string>> = {
  stop_loss: 'Stop loss',
  profit_target: 'Profit target',
  max_dte: 'Days to expiry at the limit',
  exit_rule: 'Exit rule',
  expiry: 'Held to expiry',
  end_of_period: 'End of period',
};

export function optionsExitReasonWords(reason: OptionsExitReason): string {
  return EXIT_REASONS[reason] ?? reason;
}

/** "realized 20-day" or "VIX close ÷ 100": where σ came from. */
export function volatilityWords(volatility: string): string {
  return volatility === 'realized_20d' ? 'realized 20-day' : `${volatility} close ÷ 100`;
}

/**
 * The note shown beside every options result: "Modeled prices: Black–Scholes, volatility = realized 20-day, half
 * of a modeled spread paid per fill — not market quotes."
 */
export function modeledPricesNote(pricing: OptionsPricing): string {
  const model = pricing.model === 'black_scholes' ? 'Black–Scholes' : pricing.model;
  const rate = pricing.rate === 0 ? '' : `, risk-free rate ${formatPercent(pricing.rate)}`;
  return `Modeled prices: ${model}, volatility = ${volatilityWords(pricing.volatility)}${rate}, half of a modeled spread paid per fill — not market quotes.`;
}

/** A net premium per share: a credit as an amount, a debit said so ("$0.80 debit"). */
export function creditWords(credit: number): string {
  return credit < 0 ? `${formatMoney(-credit)} debit` : formatMoney(credit);
}

/** One leg's side and right: "Short put", "Long call". */
export function legWords(leg: Pick<OptionLeg, 'side' | 'right'>): string {
  return `${leg.side === 'short' ? 'Short' : 'Long'} ${leg.right}`;
}

/** Why entry signals did not open a position, one sentence per cause; empty when none was skipped. */
export function skippedEntriesWords(skipped: OptionsBacktestResult['skipped_entries'], creditMinAmount: number | null): string[] {
  const signals = (count: number) => `${formatCount(count)} entry ${count === 1 ? 'signal was' : 'signals were'} skipped`;
  const sentences: string[] = [];
  if (skipped.credit_below_minimum > 0) {
    const minimum = creditMinAmount === null ? 'the strategy’s minimum credit' : `the minimum credit of ${formatMoney(creditMinAmount)} a share`;
    sentences.push(`${signals(skipped.credit_below_minimum)}: the modeled credit was below ${minimum}.`);
  }
  if (skipped.no_contract_affordable > 0) {
    sentences.push(`${signals(skipped.no_contract_affordable)}: not one contract was affordable, its maximum loss being more than the cash (or the strategy’s max position size).`);
  }
  if (skipped.no_volatility > 0) {
    sentences.push(`${signals(skipped.no_volatility)}: there was no volatility yet to price the legs with (the realized 20-day volatility needs 21 closes; a volatility symbol needs a close on or before the day).`);
  }
  return sentences;
}

/** The commission an options result used (the `costs` echo): per leg and contract on every fill, none at expiry. */
export function contractCommissionSentence(costs: { readonly commission_per_contract: number } | undefined): string {
  const perContract = costs?.commission_per_contract ?? 0;
  return perContract > 0 ? `Commission: ${fee.format(perContract)} per contract and leg, on each opening and closing fill.` : 'No commission assumed.';
}
