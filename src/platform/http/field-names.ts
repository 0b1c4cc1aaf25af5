/** The longest name sent by a client (a body member's key) that an error quotes in full. */
export const QUOTED_NAME_LENGTH = 64;

/**
 * A name the client sent, as an error may quote it: cut to `QUOTED_NAME_LENGTH` characters and "…", so that a
 * 900 KB key is not echoed back (twice: in the message and in `details`).
 */
export function quotedName(name: string): string {
  if (name.length <= QUOTED_NAME_LENGTH) return name;
  const cut = name.slice(0, QUOTED_NAME_LENGTH);
  // Never half a surrogate pair.
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/** The field a validation problem names: the request part (`body`, `params`, …) and the names below it, joined by dots. */
export function fieldPath(part: string, names: readonly string[]): string {
  return [part, ...names.map(quotedName)].join('.');
}

/** The names of an Ajv `instancePath` (`/a/0/b`). */
export function namesOf(instancePath: string): string[] {
  return instancePath.split('/').filter(Boolean);
}
