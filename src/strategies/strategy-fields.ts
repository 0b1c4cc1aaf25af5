import { isTicker } from '../market/market-terms.js';
import { BadRequest } from '../platform/errors.js';
import { ruleProblem } from './grammar/index.js';
import { DESCRIPTION_MAX, NAME_MAX } from './strategies.schema.js';

export const ALLOWLIST_MAX_SYMBOLS = 100;

/** 1–100 characters once trimmed; stored trimmed. */
export function normalizeName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > NAME_MAX) {
    throw new BadRequest('validation_failed', `The name must be 1 to ${NAME_MAX} characters.`, [
      { field: 'body.name', message: `must be 1 to ${NAME_MAX} characters after trimming` },
    ]);
  }
  return trimmed;
}

/** At most 2000 characters (the schema says so too); null is stored as "" (the column holds text). */
export function normalizeDescription(description: string | null): string {
  const text = description ?? '';
  if (text.length > DESCRIPTION_MAX) {
    throw new BadRequest('validation_failed', `The description must be at most ${DESCRIPTION_MAX} characters.`, [
      { field: 'body.description', message: `must be at most ${DESCRIPTION_MAX} characters` },
    ]);
  }
  return text;
}

/**
 * `" SPY , QQQ"` → `"SPY,QQQ"`. Upper-case tickers only (no silent upper-casing: `spy` is refused, so the
 * stored list is what the user typed), comma-separated, spaces around commas removed, no empty entry, no
 * duplicate, at most 100. A blank text or null is no constraint (null).
 */
export function normalizeAllowlist(text: string | null): string | null {
  if (text === null || text.trim() === '') return null;
  const symbols = text.split(',').map((part) => part.trim());
  const seen = new Set<string>();
  for (const symbol of symbols) {
    if (symbol === '') throw allowlistError('has an empty entry (two commas in a row, or a comma at an end)');
    if (!isTicker(symbol)) throw allowlistError(`"${symbol}" is not an upper-case ticker such as SPY or BRK.B`);
    if (seen.has(symbol)) throw allowlistError(`lists ${symbol} twice`);
    seen.add(symbol);
  }
  if (symbols.length > ALLOWLIST_MAX_SYMBOLS) throw allowlistError(`has ${symbols.length} symbols; at most ${ALLOWLIST_MAX_SYMBOLS}`);
  return symbols.join(',');
}

function allowlistError(problem: string): BadRequest {
  return new BadRequest('validation_failed', `entry_symbol_allowlist ${problem}.`, [{ field: 'body.entry_symbol_allowlist', message: problem }]);
}

/**
 * A rule text as sent (so that the grammar's columns point into what the user typed), or null when blank.
 * A text the grammar refuses is a 400 `invalid_rule` whose message is the grammar's ("column N: …").
 */
export function checkedRule(field: 'entry_rule' | 'exit_rule', text: string | null): string | null {
  if (text === null || text.trim() === '') return null;
  const problem = ruleProblem(text);
  if (problem) {
    throw new BadRequest('invalid_rule', problem.message, [{ field: `body.${field}`, message: problem.message, column: problem.column }]);
  }
  return text;
}
