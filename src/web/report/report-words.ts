/** The report's and the Monte Carlo's figures in words (pure). */
import { formatCount, formatMoney, formatPercent } from '../ui/format';
import { MONTH_NAMES } from './monthly-grid';
import type { MonteCarloMethod, MonthlyReturn, Percentiles } from './report-types';

/** "Mar 2009 (-10.99%)"; "—" without a month. */
export function monthText(month: MonthlyReturn | null): string {
  return month ? `${MONTH_NAMES[month.month - 1]} ${month.year} (${formatPercent(month.return)})` : formatPercent(null);
}

/** "3 losing trades in a row"; "No losing trade" at 0. */
export function streakText(streak: number): string {
  if (streak === 0) return 'No losing trade';
  return `${formatCount(streak)} losing ${streak === 1 ? 'trade' : 'trades'} in a row`;
}

export const METHOD_WORDS: Readonly<Record<MonteCarloMethod, { label: string; explanation: string }>> = {
  bootstrap: {
    label: 'Bootstrap',
    explanation: 'Draws as many trades as the run had, at random with replacement: a trade may come twice, another not at all.',
  },
  shuffle: {
    label: 'Shuffle',
    explanation: 'Keeps exactly the run’s trades and only changes their order: the final equity stays, the drawdowns change.',
  },
};

export const MONTE_CARLO_QUESTION =
  'Was the result skill or luck in the order the trades fell? Replaying the same trades in other orders (or resampled) shows how different it could have been.';

/** The probability of ending below the starting capital, as a sentence with its odds. */
export function lossSentence(probability: number, runs: number): string {
  const losing = Math.round(probability * runs);
  if (losing === 0) return `None of the ${formatCount(runs)} resampled runs ended below the starting capital.`;
  if (losing === runs) return `All ${formatCount(runs)} resampled runs ended below the starting capital.`;
  const odds = Math.round(1 / probability);
  return `${formatPercent(probability)} of the ${formatCount(runs)} resampled runs (${formatCount(losing)}) ended below the starting capital: about 1 in ${formatCount(odds)}.`;
}

/** Where the runs' final equity fell, and where the actual order of the trades ended: the fan chart's description. */
export function fanSentence(finalEquity: Percentiles, actualFinal: number | null): string {
  const actual = ` The actual order of the trades ended at ${formatMoney(actualFinal)}.`;
  if (finalEquity.p5 === finalEquity.p95) return `Every run ended at ${formatMoney(finalEquity.p50)}: the same trades in another order compound to the same end; only the path between differs.${actual}`;
  return `Half of the runs ended between ${formatMoney(finalEquity.p25)} and ${formatMoney(finalEquity.p75)}, nine in ten between ${formatMoney(finalEquity.p5)} and ${formatMoney(finalEquity.p95)}.${actual}`;
}
