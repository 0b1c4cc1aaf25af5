/**
 * OCC option symbols (the OSI format): root (1–6 characters), expiry YYMMDD, C or P, strike × 1000 in 8 digits.
 * `SPY261218C00450000` is the SPY call of 18 Dec 2026 at 450. The 21-character form pads the root to six
 * characters with spaces (`SPY   261218C00450000`); both are read, and `symbol` is always the compact form (positions
 * are keyed by it, so the two spellings are one contract). Pure: no I/O.
 */
export interface OccOption {
  /** The compact form (`root` + tail, no padding) whichever form was given: one contract, one symbol. */
  readonly symbol: string;
  readonly root: string;
  /** `YYYY-MM-DD`. */
  readonly expiry: string;
  readonly type: 'call' | 'put';
  readonly strike: number;
}

/** Digits of the tail after the root: YYMMDD, C|P, 8 strike digits. */
const TAIL = /^(\d{2})(\d{2})(\d{2})([CP])(\d{8})$/;
const TAIL_LENGTH = 15;
const ROOT = /^[A-Z][A-Z0-9]{0,5}$/;
const PADDED_LENGTH = 21;

/** The parts of an OCC symbol, or null when `text` is not one (including a calendar date that does not exist). */
export function parseOccSymbol(text: string): OccOption | null {
  if (text.length <= TAIL_LENGTH || text.length > PADDED_LENGTH) return null;
  const head = text.slice(0, -TAIL_LENGTH);
  // Spaces only as the padding of the 21-character form, after the root.
  const root = head.includes(' ') ? (text.length === PADDED_LENGTH ? head.trimEnd() : '') : head;
  if (!ROOT.test(root)) return null;
  const tail = text.slice(-TAIL_LENGTH);
  const match = TAIL.exec(tail);
  if (!match) return null;
  const [, yy, mm, dd, kind, strikeDigits] = match as unknown as [string, string, string, string, 'C' | 'P', string];
  const expiry = `20${yy}-${mm}-${dd}`;
  if (!isCalendarDate(expiry)) return null;
  const strike = Number(strikeDigits) / 1000;
  if (strike <= 0) return null;
  return { symbol: `${root}${tail}`, root, expiry, type: kind === 'C' ? 'call' : 'put', strike };
}

function isCalendarDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date;
}
