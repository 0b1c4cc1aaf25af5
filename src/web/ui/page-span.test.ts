import { describe, expect, it } from 'vitest';
import { rangeText } from './page-span';

describe('rangeText', () => {
  it('gives the range of a page that is part of the list, else the total alone', () => {
    expect(rangeText({ offset: 0, shown: 50, total: 1234 })).toBe('1–50 of 1,234');
    expect(rangeText({ offset: 1200, shown: 34, total: 1234 })).toBe('1,201–1,234 of 1,234');
    expect(rangeText({ offset: 0, shown: 12, total: 12 })).toBe('12');
    expect(rangeText({ offset: 0, shown: 0, total: 0 })).toBe('0');
  });
});
