/** A UUID as the API's `format: 'uuid'` takes it: 8-4-4-4-12 hex digits, any case. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The API's most ids in one incident (`affected`'s `maxItems`). */
export const MAX_AFFECTED = 10_000;

/**
 * The notify form's "These accounts" text, one id per line or comma-separated, as the ids to send (each once, in
 * the order given), or the sentence for the field when it cannot be sent.
 */
export function parseAffectedIds(text: string): { ids: string[] } | { error: string } {
  const words = text.split(/[\s,;]+/).filter((word) => word !== '');
  if (words.length === 0) return { error: 'Enter at least one account id (one per line or comma-separated), or choose Everyone.' };
  const wrong = words.filter((word) => !UUID.test(word));
  if (wrong.length > 0) {
    const named = wrong.slice(0, 3).map((word) => `“${word}”`).join(', ');
    const more = wrong.length > 3 ? ` and ${wrong.length - 3} more` : '';
    return { error: `${wrong.length === 1 ? 'This is not an account id' : 'These are not account ids'}: ${named}${more}. An id is 36 characters (8-4-4-4-12 hex digits): copy it from the Users page’s Id column.` };
  }
  const ids = [...new Set(words.map((word) => word.toLowerCase()))];
  if (ids.length > MAX_AFFECTED) return { error: `At most ${MAX_AFFECTED.toLocaleString('en-US')} ids at once (${ids.length.toLocaleString('en-US')} given); choose Everyone or split the incident.` };
  return { ids };
}

/** The field's sentence for the server's 400 `unknown_users` (its details name up to 20 ids as "no account <id>"). */
export function unknownUsersText(message: string, details: readonly { field?: string; message?: string }[]): string {
  const ids = details.map((detail) => detail.message?.replace(/^no account /, '')).filter((id): id is string => Boolean(id));
  if (ids.length === 0) return message;
  return `No account has ${ids.length === 1 ? 'this id' : 'these ids'}: ${ids.join(', ')}${ids.length === 20 ? ' (and maybe more)' : ''}. Nothing was sent.`;
}
