import { describe, expect, it } from 'vitest';
import { roundToListedStrike, strikeAway } from './listed-strikes.js';

describe('roundToListedStrike: $1 apart below $200, $5 from $200 up', () => {
  it('rounds to the nearest dollar below 200 (a tie up)', () => {
    expect(roundToListedStrike(90.9877)).toBe(91);
    expect(roundToListedStrike(150.49)).toBe(150);
    expect(roundToListedStrike(150.5)).toBe(151);
  });

  it('at the boundary: the unrounded strike picks the grid', () => {
    expect(roundToListedStrike(199.4)).toBe(199);
    expect(roundToListedStrike(199.99)).toBe(200);
    expect(roundToListedStrike(200)).toBe(200);
    expect(roundToListedStrike(200.6)).toBe(200);
    expect(roundToListedStrike(202.49)).toBe(200);
    expect(roundToListedStrike(202.5)).toBe(205);
    expect(roundToListedStrike(3297.6)).toBe(3300);
  });

  it('never below $1', () => {
    expect(roundToListedStrike(0.3)).toBe(1);
  });
});

describe('strikeAway', () => {
  it('is `width` above or below, on the grid', () => {
    expect(strikeAway(3300, 50, 'down')).toBe(3250);
    expect(strikeAway(3300, 50, 'up')).toBe(3350);
    expect(strikeAway(150, 5, 'down')).toBe(145);
    expect(strikeAway(205, 10, 'down')).toBe(195);
  });

  it('at least one grid step away when the width is under the step', () => {
    expect(strikeAway(3300, 2, 'down')).toBe(3295);
    expect(strikeAway(3300, 2, 'up')).toBe(3305);
    expect(strikeAway(200, 0.4, 'down')).toBe(199);
  });
});
