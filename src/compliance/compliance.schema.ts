import { Type, type Static } from 'typebox';
import { Strategy } from '../strategies/strategies.schema.js';

/** At most this many legs in a request (an iron condor has 4; more is a structure violation, far more is a 400). */
export const MAX_LEGS = 8;
export const MAX_QTY = 10_000_000;

const Side = Type.Enum(['buy', 'sell']);

export const ComplianceRequest = Type.Object(
  {
    strategy_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'One of your strategies' }),
    symbol: Type.String({ minLength: 1, maxLength: 32, description: 'Upper-case ticker; the underlying of an options order' }),
    qty: Type.Integer({ minimum: 1, maximum: MAX_QTY, description: 'Shares, or contracts of an options order' }),
    side: Side,
    price: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, description: 'Price per share; for an options order the net price per share as quoted (a credit when selling)' }),
    ),
    order_type: Type.Optional(Type.Enum(['market', 'limit'], { description: 'A limit order needs a price' })),
    legs: Type.Optional(
      Type.Array(
        Type.Object(
          {
            symbol: Type.String({ minLength: 1, maxLength: 32, description: 'OCC option symbol such as SPY261218C00450000' }),
            side: Side,
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_LEGS },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ComplianceRequest = Static<typeof ComplianceRequest>;

export const ComplianceResult = Type.Object({
  compliant: Type.Boolean(),
  strategy: Strategy,
  violations: Type.Array(
    Type.Object({
      rule: Type.String({ description: 'strategy_active, symbol_allowed, side_allowed, max_position_size, leg_structure, max_dte or min_credit' }),
      message: Type.String(),
    }),
  ),
});
export type ComplianceResult = Static<typeof ComplianceResult>;
