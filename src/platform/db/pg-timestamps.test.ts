import { describe, expect, it } from 'vitest';
import { timestampToIso, timestamptzToIso } from './pg-timestamps.js';

// What the parsers replaced: the Date round trip.
const viaDate = (text: string) => new Date(text).toISOString();

describe('PostgreSQL timestamp text to ISO', () => {
  it('rewrites the UTC text PostgreSQL sends as the Date round trip would', () => {
    expect(timestamptzToIso('2026-11-24 02:58:00.123456+00')).toBe('2026-11-24T02:58:00.123Z');
    expect(timestamptzToIso('2026-11-24 02:58:00+00')).toBe('2026-11-24T02:58:00.000Z');
    expect(timestamptzToIso('2026-11-24 02:58:00.5+00')).toBe('2026-11-24T02:58:00.500Z');
    expect(timestampToIso('2026-11-24 02:58:00.999999')).toBe('2026-11-24T02:58:00.999Z');
  });

  it('agrees with the Date round trip on every fraction length and on random instants', () => {
    const texts: string[] = [];
    for (let digits = 0; digits <= 6; digits += 1) texts.push(`2026-02-28 23:59:59${digits ? `.${'987654'.slice(0, digits)}` : ''}`);
    for (let i = 0; i < 2000; i += 1) {
      const iso = new Date(Date.UTC(1000 + Math.floor(Math.random() * 9000), 0, 1) + Math.floor(Math.random() * 365 * 86_400_000)).toISOString();
      const micros = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
      texts.push(`${iso.slice(0, 10)} ${iso.slice(11, 19)}.${micros}`);
    }
    for (const text of texts) {
      expect(timestamptzToIso(`${text}+00`)).toBe(viaDate(`${text}+00`));
      expect(timestampToIso(text)).toBe(viaDate(`${text}Z`));
    }
  });

  it('leaves any other offset or shape to Date', () => {
    expect(timestamptzToIso('2026-11-24 03:58:00.123+01')).toBe('2026-11-24T02:58:00.123Z');
    expect(timestamptzToIso('2026-11-24 02:58:00+05:30')).toBe(viaDate('2026-11-24 02:58:00+05:30'));
    expect(timestamptzToIso('0999-01-01 00:00:00+00')).toBe(viaDate('0999-01-01 00:00:00+00'));
    expect(() => timestamptzToIso('infinity')).toThrow(RangeError);
  });
});
