import { describe, expect, it } from 'vitest';
import { loadSpxBars } from '../../test/fixtures/bar-series.js';
import { calendarDaysBetween, dateOfDayNumber, dayNumber, dayNumbersOf, timestamp, weekdayOf } from './dates.js';

const MS_PER_DAY = 86_400_000;

describe('bar date arithmetic', () => {
  it('counts days from 1970-01-01 as Date does, across leap years and centuries', () => {
    const samples = ['1970-01-01', '1969-12-31', '1900-03-01', '2000-02-29', '2000-03-01', '2024-02-29', '2100-03-01', '0001-01-01'];
    for (const date of samples) expect(dayNumber(date), date).toBe(Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY);
    for (let day = -719_162; day < 2_932_897; day += 997) {
      const date = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
      expect(dayNumber(date)).toBe(day);
    }
  });

  it('agrees with Date on every day of the years 0000–0401, 1899–2101 and 9998–9999 (the integer floors)', () => {
    for (const [from, to] of [['0000-01-01', '0402-01-01'], ['1899-01-01', '2102-01-01'], ['9998-01-01', '9999-12-31']] as const) {
      const last = Date.parse(`${to}T00:00:00Z`) / MS_PER_DAY;
      for (let day = Date.parse(`${from}T00:00:00Z`) / MS_PER_DAY; day <= last; day++) {
        const date = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
        if (dayNumber(date) !== day) expect(dayNumber(date), date).toBe(day);
      }
    }
  });

  it('agrees with Date on every SPX date', () => {
    for (const date of loadSpxBars().dates) expect(dayNumber(date)).toBe(Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY);
  });

  it('gives calendar days between dates and the trade timestamp', () => {
    expect(calendarDaysBetween('2019-12-31', '2020-03-01')).toBe(61);
    expect(calendarDaysBetween('2020-04-17', '2000-01-03')).toBe(-7410);
    expect(timestamp('2020-04-17')).toBe('2020-04-17T00:00:00.000Z');
  });

  it('counts calendar days (option expiries too), across month, year and leap-day boundaries', () => {
    expect(calendarDaysBetween('2026-03-09', '2026-03-09')).toBe(0);
    expect(calendarDaysBetween('2026-03-09', '2026-04-17')).toBe(39);
    expect(calendarDaysBetween('2027-12-31', '2028-03-01')).toBe(61);
    expect(calendarDaysBetween('2026-03-10', '2026-03-09')).toBe(-1);
  });

  it('keeps a series\' day numbers in a column: the same numbers on every read, parsed once per bar', () => {
    const dates = loadSpxBars().dates;
    const days = dayNumbersOf(dates);
    for (let bar = 0; bar < dates.length; bar += 7) expect(days.at(bar)).toBe(dayNumber(dates[bar]!));
    expect(days.between(0, dates.length - 1)).toBe(calendarDaysBetween(dates[0]!, dates.at(-1)!));
    // A second view of the same array reads the column the first filled: a changed string is not parsed again.
    const copy = [...dates];
    const first = dayNumbersOf(copy).at(3);
    copy[3] = '1970-01-01';
    expect(dayNumbersOf(copy).at(3)).toBe(first);
    // A string that is not a date gives what dayNumber gives, on every read: NaN, or a number beyond the column's
    // 32 bits, is not cached (a cached one would come back wrapped or as 'not parsed').
    const odd = ['2024-01-02', 'bad', '\uffff\uffff\uffff\uffff-01-01'];
    for (const bar of [1, 2, 1, 2]) expect(dayNumbersOf(odd).at(bar)).toBe(dayNumber(odd[bar]!));
    expect(Math.abs(dayNumber(odd[2]!))).toBeGreaterThan(2 ** 31);
  });
});

describe('dateOfDayNumber and weekdayOf', () => {
  it('dateOfDayNumber inverts dayNumber, leap days and centuries included', () => {
    for (const date of ['1970-01-01', '1969-12-31', '2000-02-29', '1900-03-01', '2020-03-20', '2026-12-31', '0001-01-01', '9999-12-31']) {
      expect(dateOfDayNumber(dayNumber(date))).toBe(date);
    }
    for (let day = dayNumber('1999-01-01'); day < dayNumber('2001-12-31'); day += 13) expect(dayNumber(dateOfDayNumber(day))).toBe(day);
  });

  it('weekdayOf: 2020-03-20 was a Friday (5), 1970-01-01 a Thursday (4), 1969-12-28 a Sunday (0)', () => {
    expect(weekdayOf(dayNumber('2020-03-20'))).toBe(5);
    expect(weekdayOf(dayNumber('1970-01-01'))).toBe(4);
    expect(weekdayOf(dayNumber('1969-12-28'))).toBe(0);
  });
});
