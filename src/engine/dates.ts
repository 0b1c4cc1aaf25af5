/** Calendar arithmetic on 'YYYY-MM-DD' bar dates, without Date objects (the engine may call it per trade). */

/** 'YYYY-MM-DD' → 'YYYY-MM-DDT00:00:00.000Z', the trade timestamp of a daily bar. */
export function timestamp(date: string): string {
  return `${date}T00:00:00.000Z`;
}

/**
 * Days from 1970-01-01 to a 'YYYY-MM-DD' date (years 0000–9999) in the proleptic Gregorian calendar (H. Hinnant's
 * days_from_civil, with the year counted from March so that a leap day ends it). Integer arithmetic only: the year
 * is moved on by 400 (146,097 days) so that every quotient is of a non-negative integer and `| 0` is its floor, which
 * V8 does without a floating-point division (the engine calls this twice per round trip).
 */
export function dayNumber(date: string): number {
  const year = digits(date, 0, 4);
  const month = digits(date, 5, 2);
  const day = digits(date, 8, 2);
  const y = (month <= 2 ? year - 1 : year) + 400;
  const dayOfYear = ((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) | 0;
  return y * 365 + (y >> 2) - ((y / 100) | 0) + ((y / 400) | 0) + dayOfYear + day - 1 - 719_468 - 146_097;
}

/** Whole calendar days from one 'YYYY-MM-DD' date to another (negative if `to` is earlier). */
export function calendarDaysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) value = value * 10 + (text.charCodeAt(i) - 48);
  return value;
}

/** dayNumber + DAY_OFFSET is ≥ 1 for every date of the years 0000–9999, so 0 in a cache means "not parsed yet". */
const DAY_OFFSET = 1_000_000;
const dayNumberCaches = new WeakMap<readonly string[], Int32Array>();

/**
 * The day numbers of a dates column, parsed once per bar and kept for as long as the column lives (keyed by the
 * array, which a bar series never changes): a run on a series already traded reads its round trips' days from this
 * column instead of from date strings scattered through the heap. Filled lazily, bar by bar, so a first run parses
 * only the dates it asks for, as before.
 */
export function dayNumbersOf(dates: readonly string[]): DayNumbers {
  let cache = dayNumberCaches.get(dates);
  if (cache === undefined || cache.length !== dates.length) {
    cache = new Int32Array(dates.length);
    dayNumberCaches.set(dates, cache);
  }
  return new DayNumbers(dates, cache);
}

export class DayNumbers {
  readonly #dates: readonly string[];
  readonly #cache: Int32Array;

  constructor(dates: readonly string[], cache: Int32Array) {
    this.#dates = dates;
    this.#cache = cache;
  }

  /** dayNumber(dates[bar]). */
  at(bar: number): number {
    const cached = this.#cache[bar]!;
    if (cached !== 0) return cached - DAY_OFFSET;
    const day = dayNumber(this.#dates[bar]!);
    // A string that is not a date can give a number the column cannot hold (or NaN): not cached.
    if (((day + DAY_OFFSET) | 0) === day + DAY_OFFSET) this.#cache[bar] = day + DAY_OFFSET;
    return day;
  }

  /** calendarDaysBetween(dates[from], dates[to]). */
  between(from: number, to: number): number {
    return this.at(to) - this.at(from);
  }
}

/** The 'YYYY-MM-DD' date of a day number (days from 1970-01-01; Hinnant's civil_from_days), the inverse of dayNumber. */
export function dateOfDayNumber(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The day of the week of a day number: 0 Sunday … 6 Saturday (1970-01-01 was a Thursday). */
export function weekdayOf(days: number): number {
  return (((days + 4) % 7) + 7) % 7;
}
