/** Calendar arithmetic on 'YYYY-MM-DD' bar dates, without Date objects (the engine may call it per trade). */

/** 'YYYY-MM-DD' → 'YYYY-MM-DDT00:00:00.000Z', the trade timestamp of a daily bar. */
export function timestamp(date: string): string {
  return `${date}T00:00:00.000Z`;
}

/** Days from 1970-01-01 to a 'YYYY-MM-DD' date in the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
export function dayNumber(date: string): number {
  const year = digits(date, 0, 4);
  const month = digits(date, 5, 2);
  const day = digits(date, 8, 2);
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
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
