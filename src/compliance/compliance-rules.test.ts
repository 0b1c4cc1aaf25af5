import { describe, expect, it } from 'vitest';
import {
  checkCompliance,
  COMPLIANCE_RULES,
  money,
  newYorkDate,
  type ComplianceContext,
  type ComplianceStrategy,
  type ComplianceTrade,
  type OptionLeg,
} from './compliance-rules.js';
import { parseOccSymbol } from './occ-symbol.js';

/** No constraint at all: only strategy_active and leg_structure apply. */
const OPEN: ComplianceStrategy = {
  strategy_type: 'custom',
  is_active: true,
  entry_symbol_allowlist: null,
  entry_max_position_size: null,
  entry_allowed_sides: null,
  credit_min_amount: null,
  exit_max_dte: null,
};
const TODAY = '2026-03-09';
const CONTEXT: ComplianceContext = { today: TODAY, referencePrice: 100 };

function leg(symbol: string, side: 'buy' | 'sell'): OptionLeg {
  const option = parseOccSymbol(symbol);
  if (!option) throw new Error(`bad test symbol ${symbol}`);
  return { ...option, side };
}

const SHARES: ComplianceTrade = { symbol: 'SPY', qty: 10, side: 'buy', price: 100, legs: [] };
/** A put credit spread on SPY expiring 2026-04-17 (39 days after TODAY). */
const PUT_SPREAD = [leg('SPY260417P00500000', 'sell'), leg('SPY260417P00490000', 'buy')];
const SPREAD: ComplianceTrade = { symbol: 'SPY', qty: 2, side: 'sell', price: 1.25, legs: PUT_SPREAD };
const CONDOR_LEGS = [
  leg('SPY260417P00480000', 'buy'),
  leg('SPY260417P00490000', 'sell'),
  leg('SPY260417C00560000', 'sell'),
  leg('SPY260417C00570000', 'buy'),
];
const CONDOR: ComplianceTrade = { symbol: 'SPY', qty: 1, side: 'sell', price: 2.1, legs: CONDOR_LEGS };

type Case = [
  title: string,
  strategy: Partial<ComplianceStrategy>,
  trade: ComplianceTrade,
  context: ComplianceContext,
  expected: string | null,
];

/** The golden table: for each rule a compliant and a violating trade, with the exact message. */
const GOLDEN: Record<string, Case[]> = {
  strategy_active: [
    ['an active strategy', {}, SHARES, CONTEXT, null],
    ['an inactive strategy', { is_active: false }, SHARES, CONTEXT, 'The strategy is not active; activate it before trading with it.'],
  ],
  symbol_allowed: [
    ['a listed symbol', { entry_symbol_allowlist: 'QQQ,SPY' }, SHARES, CONTEXT, null],
    ['an unlisted symbol', { entry_symbol_allowlist: 'QQQ,IWM' }, SHARES, CONTEXT, "SPY is not in the strategy's allowlist (QQQ, IWM)."],
    ['a symbol that only starts like a listed one', { entry_symbol_allowlist: 'SPYG' }, SHARES, CONTEXT, "SPY is not in the strategy's allowlist (SPYG)."],
  ],
  side_allowed: [
    ['a buy where buys are allowed', { entry_allowed_sides: 'buy' }, SHARES, CONTEXT, null],
    ['either side where both are', { entry_allowed_sides: 'buy,sell' }, { ...SHARES, side: 'sell' }, CONTEXT, null],
    ['a buy where only sells are', { entry_allowed_sides: 'sell' }, SHARES, CONTEXT, 'The strategy allows only sell orders; this is a buy.'],
  ],
  max_position_size: [
    ['exactly the maximum (10 × $100)', { entry_max_position_size: 1000 }, SHARES, CONTEXT, null],
    ['above the maximum', { entry_max_position_size: 999.99 }, SHARES, CONTEXT, 'Position size $1,000.00 (10 × $100.00) exceeds the maximum of $999.99.'],
    ['an options order within it (2 × $1.25 × 100)', { entry_max_position_size: 250 }, SPREAD, { today: TODAY, referencePrice: 1.25 }, null],
    ['an options order above it', { entry_max_position_size: 200 }, SPREAD, { today: TODAY, referencePrice: 1.25 }, 'Position size $250.00 (2 × $1.25 × 100) exceeds the maximum of $200.00.'],
    [
      'an unknown price',
      { entry_max_position_size: 5000 },
      { ...SHARES, price: null },
      { today: TODAY, referencePrice: null, priceUnknownReason: 'no price in the request and no stored close for SPY' },
      'The price is unknown (no price in the request and no stored close for SPY), so the position size cannot be checked against the maximum of $5,000.00.',
    ],
  ],
  leg_structure: [
    ['shares for an equity strategy', { strategy_type: 'equity_long' }, SHARES, CONTEXT, null],
    ['legs for an equity strategy', { strategy_type: 'equity_short' }, SPREAD, CONTEXT, 'An equity_short strategy trades shares; this order has option legs.'],
    ['a vertical spread', { strategy_type: 'vertical_spread' }, SPREAD, CONTEXT, null],
    ['a vertical spread without legs', { strategy_type: 'vertical_spread' }, SHARES, CONTEXT, 'A vertical spread has 2 legs; this order has 0.'],
    ['an expired leg, with no days-to-expiry limit set', { strategy_type: 'custom' }, { ...SPREAD, legs: [leg('SPY260306P00500000', 'sell')] }, CONTEXT, 'Leg SPY260306P00500000 expired on 2026-03-06.'],
    [
      'a vertical spread over two expiries',
      { strategy_type: 'vertical_spread' },
      { ...SPREAD, legs: [PUT_SPREAD[0]!, leg('SPY260515P00490000', 'buy')] },
      CONTEXT,
      'The legs of a vertical spread share one expiry; these expire on 2026-04-17 and 2026-05-15.',
    ],
    [
      'a vertical spread of a put and a call',
      { strategy_type: 'vertical_spread' },
      { ...SPREAD, legs: [PUT_SPREAD[0]!, leg('SPY260417C00490000', 'buy')] },
      CONTEXT,
      'The legs of a vertical spread are both calls or both puts; these are a call and a put.',
    ],
    [
      'a vertical spread at one strike',
      { strategy_type: 'vertical_spread' },
      { ...SPREAD, legs: [PUT_SPREAD[0]!, leg('SPY260417P00500000', 'buy')] },
      CONTEXT,
      'The legs of a vertical spread have different strikes; both are at 500.',
    ],
    [
      'a vertical spread selling both legs',
      { strategy_type: 'vertical_spread' },
      { ...SPREAD, legs: [PUT_SPREAD[0]!, leg('SPY260417P00490000', 'sell')] },
      CONTEXT,
      'A vertical spread buys one leg and sells the other; this order sells both.',
    ],
    [
      'a leg on another underlying',
      { strategy_type: 'vertical_spread' },
      { ...SPREAD, legs: [PUT_SPREAD[0]!, leg('QQQ260417P00490000', 'buy')] },
      CONTEXT,
      "Leg QQQ260417P00490000 is an option on QQQ, not on the order's symbol SPY.",
    ],
    ['an iron condor in any leg order', { strategy_type: 'iron_condor' }, { ...CONDOR, legs: [...CONDOR_LEGS].reverse() }, CONTEXT, null],
    [
      'an iron condor with 3 legs',
      { strategy_type: 'iron_condor' },
      { ...CONDOR, legs: CONDOR_LEGS.slice(0, 3) },
      CONTEXT,
      'An iron condor has 4 legs (long put < short put < short call < long call); this order has 3.',
    ],
    [
      'an iron condor with the short strikes crossed',
      { strategy_type: 'iron_condor' },
      { ...CONDOR, legs: [CONDOR_LEGS[0]!, leg('SPY260417P00565000', 'sell'), CONDOR_LEGS[2]!, CONDOR_LEGS[3]!] },
      CONTEXT,
      "An iron condor's strikes run long put < short put < short call < long call; these are 480, 565, 560, 570.",
    ],
    [
      'an iron condor of three calls',
      { strategy_type: 'iron_condor' },
      { ...CONDOR, legs: [leg('SPY260417C00480000', 'buy'), CONDOR_LEGS[1]!, CONDOR_LEGS[2]!, CONDOR_LEGS[3]!] },
      CONTEXT,
      'An iron condor is one long put, one short put, one short call and one long call (long put < short put < short call < long call).',
    ],
    [
      'an iron condor over two expiries',
      { strategy_type: 'iron_condor' },
      { ...CONDOR, legs: [CONDOR_LEGS[0]!, CONDOR_LEGS[1]!, CONDOR_LEGS[2]!, leg('SPY260424C00570000', 'buy')] },
      CONTEXT,
      'The legs of an iron condor share one expiry; these expire on 2026-04-17, 2026-04-24.',
    ],
    ['custom: any legs on the symbol', { strategy_type: 'custom' }, { ...SPREAD, legs: [PUT_SPREAD[0]!] }, CONTEXT, null],
  ],
  max_dte: [
    ['39 days where 45 are allowed', { exit_max_dte: 45 }, SPREAD, CONTEXT, null],
    ['exactly the maximum', { exit_max_dte: 39 }, SPREAD, CONTEXT, null],
    ['a leg expiring today (0 DTE)', { exit_max_dte: 1 }, { ...SPREAD, legs: [leg('SPY260309P00500000', 'sell')] }, CONTEXT, null],
    ['one day too many', { exit_max_dte: 38 }, SPREAD, CONTEXT, 'Leg SPY260417P00500000 expires on 2026-04-17, in 39 days; the strategy allows at most 38.'],
    ['an expired leg is for leg_structure (below), whatever the limit', { exit_max_dte: 45 }, { ...SPREAD, legs: [leg('SPY260306P00500000', 'sell')] }, CONTEXT, null],
    ['no legs: nothing expires', { exit_max_dte: 1 }, SHARES, CONTEXT, null],
  ],
  min_credit: [
    ['a credit at the minimum', { strategy_type: 'vertical_spread', credit_min_amount: 1.25 }, SPREAD, CONTEXT, null],
    ['a credit below it', { strategy_type: 'vertical_spread', credit_min_amount: 1.3 }, SPREAD, CONTEXT, 'Net credit $1.25 per share is below the minimum of $1.30.'],
    [
      'a buy (a debit)',
      { strategy_type: 'iron_condor', credit_min_amount: 1 },
      { ...CONDOR, side: 'buy' },
      CONTEXT,
      'A buy pays a net debit; the strategy needs a net credit of at least $1.00 per share.',
    ],
    [
      'no price',
      { strategy_type: 'iron_condor', credit_min_amount: 1 },
      { ...CONDOR, price: null },
      { today: TODAY, referencePrice: null },
      "The net credit is unknown: give the order's net price per share (at least $1.00).",
    ],
    ['an equity strategy: not a credit strategy', { strategy_type: 'equity_long', credit_min_amount: 5 }, SHARES, CONTEXT, null],
  ],
};

describe('compliance rules: the golden table', () => {
  it('has a case for every rule, each with a compliant and a violating trade', () => {
    expect(Object.keys(GOLDEN).sort()).toEqual(COMPLIANCE_RULES.map((rule) => rule.id).sort());
    for (const cases of Object.values(GOLDEN)) {
      expect(cases.some(([, , , , expected]) => expected === null)).toBe(true);
      expect(cases.some(([, , , , expected]) => expected !== null)).toBe(true);
    }
  });

  for (const [ruleId, cases] of Object.entries(GOLDEN)) {
    it.each(cases)(`${ruleId}: %s`, (_title, change, trade, context, expected) => {
      const outcome = checkCompliance({ ...OPEN, ...change }, trade, context);
      const mine = outcome.violations.filter((violation) => violation.rule === ruleId);
      expect(mine).toEqual(expected === null ? [] : [{ rule: ruleId, message: expected }]);
    });
  }

  it('is compliant when nothing is violated, and reports several violations at once in the list’s order', () => {
    expect(checkCompliance(OPEN, SHARES, CONTEXT)).toEqual({ compliant: true, violations: [] });
    const strict: ComplianceStrategy = {
      strategy_type: 'vertical_spread',
      is_active: false,
      entry_symbol_allowlist: 'QQQ',
      entry_max_position_size: 100,
      entry_allowed_sides: 'buy',
      credit_min_amount: 2,
      exit_max_dte: 30,
    };
    const outcome = checkCompliance(strict, SPREAD, { today: TODAY, referencePrice: 1.25 });
    expect(outcome.compliant).toBe(false);
    expect(outcome.violations).toEqual([
      { rule: 'strategy_active', message: 'The strategy is not active; activate it before trading with it.' },
      { rule: 'symbol_allowed', message: "SPY is not in the strategy's allowlist (QQQ)." },
      { rule: 'side_allowed', message: 'The strategy allows only buy orders; this is a sell.' },
      { rule: 'max_position_size', message: 'Position size $250.00 (2 × $1.25 × 100) exceeds the maximum of $100.00.' },
      { rule: 'max_dte', message: 'Leg SPY260417P00500000 expires on 2026-04-17, in 39 days; the strategy allows at most 30.' },
      { rule: 'min_credit', message: 'Net credit $1.25 per share is below the minimum of $2.00.' },
    ]);
  });

  it('applies a rule only when its strategy field is set', () => {
    const applying = (strategy: ComplianceStrategy) => COMPLIANCE_RULES.filter((rule) => rule.applies(strategy)).map((rule) => rule.id);
    expect(applying(OPEN)).toEqual(['strategy_active', 'leg_structure']);
    expect(applying({ ...OPEN, strategy_type: 'iron_condor', credit_min_amount: 1, exit_max_dte: 10 })).toEqual([
      'strategy_active', 'leg_structure', 'max_dte', 'min_credit',
    ]);
  });
});

describe('days to expiry in New York', () => {
  it('counts from the New York date: 03:30 UTC on 10 March is still 9 March there', () => {
    expect(newYorkDate(new Date('2026-03-10T03:30:00Z'))).toBe('2026-03-09');
    expect(newYorkDate(new Date('2026-03-10T04:00:00Z'))).toBe('2026-03-10'); // midnight EDT (DST began on 8 March)
    expect(newYorkDate(new Date('2026-01-10T04:59:59Z'))).toBe('2026-01-09'); // EST: UTC−5
    expect(newYorkDate(new Date('2026-01-10T05:00:00Z'))).toBe('2026-01-10');
  });

  it('so a leg expiring on 9 March is 0 DTE until New York midnight, then expired (for any strategy)', () => {
    const trade = { ...SPREAD, legs: [leg('SPY260309P00500000', 'sell')] };
    const strategy = OPEN;
    const before = checkCompliance(strategy, trade, { today: newYorkDate(new Date('2026-03-10T03:30:00Z')), referencePrice: 1 });
    expect(before.violations).toEqual([]);
    const after = checkCompliance(strategy, trade, { today: newYorkDate(new Date('2026-03-10T04:00:00Z')), referencePrice: 1 });
    expect(after.violations).toEqual([{ rule: 'leg_structure', message: 'Leg SPY260309P00500000 expired on 2026-03-09.' }]);
  });
});

describe('money', () => {
  it.each([
    [0, '$0.00'],
    [0.5, '$0.50'],
    [999.994, '$999.99'],
    [1000, '$1,000.00'],
    [1234567.891, '$1,234,567.89'],
    [-2.5, '-$2.50'],
    // toFixed switches to exponent form from 1e21 on; a maximum or a qty × price that large must still read as money.
    [1e21, '$1,000,000,000,000,000,000,000.00'],
    [-1.5e21, '-$1,500,000,000,000,000,000,000.00'],
    [Infinity, '$∞'],
  ])('formats %s as %s', (amount, text) => {
    expect(money(amount)).toBe(text);
  });
});
