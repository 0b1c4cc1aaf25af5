/**
 * The expiry a modeled options position is opened with: options are listed for Fridays, so the Friday on or before
 * the entry date + `dte` calendar days; when that Friday is not after the entry date (dte under a week), the first
 * Friday after the entry date. Pure, in day numbers (engine/dates.ts).
 */
import { weekdayOf } from '../dates.js';

const FRIDAY = 5;

/** The expiry's day number for an entry on day `entryDay` asking for `dte` calendar days. */
export function expiryDay(entryDay: number, dte: number): number {
  const target = entryDay + Math.max(0, Math.floor(dte));
  const onOrBefore = target - ((weekdayOf(target) - FRIDAY + 7) % 7);
  if (onOrBefore > entryDay) return onOrBefore;
  return entryDay + (((FRIDAY - weekdayOf(entryDay) + 6) % 7) + 1);
}
