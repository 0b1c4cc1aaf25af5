import { describe, expect, it } from 'vitest';
import { dayNumber, dateOfDayNumber } from '../dates.js';
import { expiryDay } from './expiry.js';
import { maxLossPerShare, structureLegs } from './structure.js';

const AT_100 = { spot: 100, volatility: 0.2, years: 30 / 365, rate: 0 };
const vertical = (structure: 'put_credit' | 'call_credit' | 'put_debit' | 'call_debit') =>
  structureLegs('vertical_spread', { structure, short_otm_pct: 0.05, width: 5, dte: 30 }, AT_100).map(({ right, strike, sign }) => `${sign > 0 ? '+' : '-'}${right[0]}${strike}`);

describe('structureLegs: the target places the short leg; a credit spread’s long leg is further out, a debit one’s nearer the money', () => {
  it('each vertical, 5 % out of the money at 100, $5 wide', () => {
    expect(vertical('put_credit')).toEqual(['+p90', '-p95']);
    expect(vertical('call_credit')).toEqual(['-c105', '+c110']);
    expect(vertical('put_debit')).toEqual(['-p95', '+p100']);
    expect(vertical('call_debit')).toEqual(['+c100', '-c105']);
  });
});

describe('maxLossPerShare: −(credit + the lowest payoff at expiry)', () => {
  it('a credit spread: width − credit; a debit spread: the debit; an iron condor: the wider wing − credit', () => {
    const putCredit = structureLegs('vertical_spread', { structure: 'put_credit', short_otm_pct: 0.05, width: 5, dte: 30 }, AT_100);
    expect(maxLossPerShare(putCredit, 0.87)).toBeCloseTo(4.13, 12);
    const callCredit = structureLegs('vertical_spread', { structure: 'call_credit', short_otm_pct: 0.05, width: 5, dte: 30 }, AT_100);
    expect(maxLossPerShare(callCredit, 0.6)).toBeCloseTo(4.4, 12);
    const callDebit = structureLegs('vertical_spread', { structure: 'call_debit', short_otm_pct: 0.05, width: 5, dte: 30 }, AT_100);
    expect(maxLossPerShare(callDebit, -2.1)).toBeCloseTo(2.1, 12);
    const condor = [
      { right: 'put', strike: 80, sign: 1 },
      { right: 'put', strike: 90, sign: -1 },
      { right: 'call', strike: 110, sign: -1 },
      { right: 'call', strike: 115, sign: 1 },
    ] as const;
    expect(maxLossPerShare(condor, 1.5)).toBeCloseTo(8.5, 12);
  });
});

describe('expiryDay: the Friday on or before entry + dte, else the first Friday after the entry', () => {
  const expiry = (entry: string, dte: number) => dateOfDayNumber(expiryDay(dayNumber(entry), dte));
  it('picks listed Fridays', () => {
    expect(expiry('2024-01-02', 10)).toBe('2024-01-12'); // a Friday itself
    expect(expiry('2024-01-02', 12)).toBe('2024-01-12'); // Sunday 01-14 → the Friday before
    expect(expiry('2024-01-02', 45)).toBe('2024-02-16');
    expect(expiry('2024-01-02', 2)).toBe('2024-01-05'); // Thu 01-04 → Fri 12-29 is not after the entry: the next Friday
    expect(expiry('2024-01-05', 0)).toBe('2024-01-12'); // an entry on a Friday never expires that day
  });
});
