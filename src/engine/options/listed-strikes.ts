/**
 * The listed strike grid the modeled legs are struck on: $1 apart below $200, $5 apart from $200 up. Which grid
 * applies is decided by the unrounded strike: 199.99 rounds on the $1 grid (to 200), 200 and above on the $5 grid
 * (202.49 → 200, 202.5 → 205). Nearest grid strike, a tie rounded up; never below the lowest listed strike, $1.
 */
export const GRID_BOUNDARY = 200;

/** The grid step at this (unrounded) strike. */
export function gridStep(strike: number): number {
  return strike < GRID_BOUNDARY ? 1 : 5;
}

/** The listed strike nearest `strike`. */
export function roundToListedStrike(strike: number): number {
  const step = gridStep(strike);
  return Math.max(1, Math.round(strike / step) * step);
}

/**
 * The listed strike `width` dollars above or below `strike` (a listed strike), rounded to the grid and at least one
 * grid step away (a width under the step still makes a spread): the other leg of a vertical spread or an iron
 * condor's wing.
 */
export function strikeAway(strike: number, width: number, direction: 'up' | 'down'): number {
  if (direction === 'up') {
    const other = roundToListedStrike(strike + width);
    return other > strike ? other : strike + gridStep(strike);
  }
  const other = roundToListedStrike(strike - width);
  // The step just below the strike: from 200 down the grid is $1 apart.
  return other < strike ? other : Math.max(1, strike - gridStep(strike - 1e-9));
}
