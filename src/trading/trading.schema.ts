import { Type, type Static } from 'typebox';
import { MAX_LEGS, MAX_QTY } from '../compliance/compliance.schema.js';

/** DESIGN's pagination: `limit` default 50, max 200; `offset` default 0; the total in `X-Total-Count`. */
export const ORDER_LIST_DEFAULT_LIMIT = 50;
export const ORDER_LIST_MAX_LIMIT = 200;
/** A price or net price per share: at most this much either way (beyond it nothing is a real quote). */
export const MAX_PRICE = 1_000_000_000;

const Side = Type.Enum(['buy', 'sell']);
const ClientOrderId = Type.String({ minLength: 1, maxLength: 64, description: 'Idempotency key: the same key again answers the first order' });
const StrategyId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'One of your strategies' });
const complianceFlags = {
  compliance_checked: Type.Optional(Type.Boolean({ description: 'Stored as sent while enforcement is off; ignored when it is on' })),
  compliance_compliant: Type.Optional(Type.Boolean({ description: 'Stored as sent while enforcement is off; ignored when it is on' })),
};

export const PlaceOrderBody = Type.Object(
  {
    symbol: Type.String({ minLength: 1, maxLength: 32, description: 'Upper-case ticker with stored bars' }),
    side: Side,
    qty: Type.Integer({ minimum: 1, maximum: MAX_QTY, description: 'Shares' }),
    order_type: Type.Optional(Type.Enum(['market', 'limit'], { description: 'Default market' })),
    limit_price: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_PRICE, description: 'Limit orders only' })),
    strategy_id: Type.Optional(StrategyId),
    client_order_id: Type.Optional(ClientOrderId),
    ...complianceFlags,
  },
  { additionalProperties: false },
);
export type PlaceOrderBody = Static<typeof PlaceOrderBody>;

export const OptionsLeg = Type.Object(
  {
    symbol: Type.String({ minLength: 1, maxLength: 32, description: 'OCC option symbol such as SPY261218C00450000' }),
    side: Side,
    ratio: Type.Integer({ minimum: 1, maximum: 100, description: 'Contracts of this leg per unit of the order' }),
  },
  { additionalProperties: false },
);

export const PlaceOptionsOrderBody = Type.Object(
  {
    underlying: Type.String({ minLength: 1, maxLength: 32, description: 'Upper-case ticker the legs are options on' }),
    legs: Type.Array(OptionsLeg, { minItems: 1, maxItems: MAX_LEGS }),
    qty: Type.Integer({ minimum: 1, maximum: MAX_QTY, description: 'Units of the structure' }),
    net_price: Type.Number({ minimum: -MAX_PRICE, maximum: MAX_PRICE, description: 'Per share: positive a debit paid, negative a credit received' }),
    strategy_id: Type.Optional(StrategyId),
    client_order_id: Type.Optional(ClientOrderId),
    ...complianceFlags,
  },
  { additionalProperties: false },
);
export type PlaceOptionsOrderBody = Static<typeof PlaceOptionsOrderBody>;

const Violation = Type.Object({ rule: Type.String(), message: Type.String() });

export const Order = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Type.Enum(['equity', 'options']),
  symbol: Type.Union([Type.String(), Type.Null()], { description: 'Equity orders; null for options orders' }),
  underlying: Type.Union([Type.String(), Type.Null()], { description: 'Options orders; null for equity orders' }),
  side: Side,
  qty: Type.Integer(),
  order_type: Type.Enum(['market', 'limit']),
  limit_price: Type.Union([Type.Number(), Type.Null()], { description: 'An options order: its net price per share' }),
  legs: Type.Union([Type.Array(OptionsLeg), Type.Null()]),
  status: Type.Enum(['accepted', 'filled', 'rejected', 'canceled']),
  fill_price: Type.Union([Type.Number(), Type.Null()]),
  filled_at: Type.Union([Type.String(), Type.Null()]),
  fill_source: Type.Union([Type.Enum(['delayed_quote', 'stored_close', 'resting_bar', 'modeled_price', 'expiry_close']), Type.Null()], {
    description:
      'Where fill_price came from: delayed_quote (the provider’s delayed price), stored_close (the latest stored close), resting_bar (a resting limit reached by a newer bar), modeled_price (options: Black–Scholes on the last close), expiry_close (a settlement at expiry); null when not filled, or filled before this was recorded',
  }),
  price_at: Type.Union([Type.String(), Type.Null()], {
    description: 'The time of fill_price: an ISO 8601 instant for a delayed_quote, else the YYYY-MM-DD of the session whose close or bar it is; null with fill_source',
  }),
  strategy_id: Type.Union([Type.Integer(), Type.Null()]),
  compliance_checked: Type.Union([Type.Boolean(), Type.Null()]),
  compliance_compliant: Type.Union([Type.Boolean(), Type.Null()]),
  reject_reason: Type.Union([Type.String(), Type.Null()], { description: 'The refusal code, such as compliance_violation or insufficient_funds' }),
  violations: Type.Union([Type.Array(Violation), Type.Null()]),
  client_order_id: Type.Union([Type.String(), Type.Null()]),
  settlement: Type.Union(
    [
      Type.Object({
        expiry: Type.String({ description: 'YYYY-MM-DD: the expiry the contracts settled at' }),
        underlying_close: Type.Number({ description: 'The underlying’s close they settled at (intrinsic value, no spread, no commission)' }),
        close_date: Type.String({ description: 'YYYY-MM-DD: that close’s session, the expiry or, when the expiry was no session, the last one before it' }),
      }),
      Type.Null(),
    ],
    { description: 'Not an order the trader placed: the settlement at expiry of the contracts in `legs` (each held one reversed), filled at their intrinsic value per share; null for a trade' },
  ),
  created_at: Type.String(),
});
export type Order = Static<typeof Order>;

export const OrderList = Type.Array(Order);

export const PriceQuoteQuery = Type.Object({ symbol: Type.String({ minLength: 1, maxLength: 32, description: 'Upper-case ticker' }) });
export type PriceQuoteQuery = Static<typeof PriceQuoteQuery>;

/** `GET quote`: the price a market order would fill at now (docs/trading.md "Fill source"). */
export const PriceQuote = Type.Object({
  symbol: Type.String(),
  price: Type.Number({ description: 'Per share, as the order would fill at it' }),
  source: Type.Enum(['delayed_quote', 'stored_close'], { description: 'The fill_source the order would record' }),
  at: Type.String({ description: 'The price’s time: an ISO 8601 instant for a delayed_quote, the session’s YYYY-MM-DD for a stored_close' }),
  provider: Type.Union([Type.Enum(['yahoo', 'alpaca']), Type.Null()], { description: 'Whose delayed price it is; null for a stored close' }),
  market_closed: Type.Boolean({ description: 'The provider’s latest price is older than 15 minutes: the market is closed and orders fill at the last close' }),
});
export type PriceQuote = Static<typeof PriceQuote>;

export const OrderListQuery = Type.Object({
  status: Type.Optional(Type.Enum(['accepted', 'filled', 'rejected', 'canceled'])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ORDER_LIST_MAX_LIMIT, description: `default ${ORDER_LIST_DEFAULT_LIMIT}, max ${ORDER_LIST_MAX_LIMIT}` })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Skip this many (default 0)' })),
});
export type OrderListQuery = Static<typeof OrderListQuery>;

export const OrderIdParams = Type.Object({
  id: Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', description: 'Order id (uuid)' }),
});
export type OrderIdParams = Static<typeof OrderIdParams>;

/** What an options order or structure can lose and gain at expiry, in dollars (null: without limit), and where it breaks even. */
const riskFields = {
  max_loss: Type.Union([Type.Number(), Type.Null()], { description: 'Dollars; null when the loss has no limit' }),
  max_gain: Type.Union([Type.Number(), Type.Null()], { description: 'Dollars; null when the gain has no limit (more calls bought than sold)' }),
  breakevens: Type.Array(Type.Number(), { description: 'Prices of the underlying at expiry; empty when the legs expire on different dates' }),
};

/** `POST options-orders/preview`: the modeled price the order would fill at, and its risk at that price, before it is placed. */
export const OptionsPreview = Type.Object({
  ...riskFields,
  modeled: Type.Object(
    {
      bid: Type.Number({ description: 'What the legs as sent are worth to a seller (the mirror order fills at it), per share; negative a credit' }),
      ask: Type.Number({ description: 'What the legs as sent fill at, per share: each leg at its model price plus half its spread (a sold leg less half); negative a credit' }),
      mid: Type.Number({ description: 'The legs at their Black–Scholes prices, per share' }),
      volatility: Type.Number({ description: 'The 20-day realized volatility of the underlying the legs are priced with (0.162 = 16.2 %)' }),
      marketable: Type.Boolean({ description: 'Whether the net price, as a limit, reaches the ask (else the order is refused: limit_not_marketable)' }),
    },
    { description: 'Black–Scholes on the last close; the risk figures are at the ask when marketable, else at the net price' },
  ),
});
export type OptionsPreview = Static<typeof OptionsPreview>;

const OptionStructure = Type.Object({
  id: Type.String({ format: 'uuid' }),
  underlying: Type.String(),
  legs: Type.Array(
    Type.Object({
      symbol: Type.String(),
      side: Side,
      ratio: Type.Integer(),
      right: Type.Enum(['call', 'put']),
      strike: Type.Number(),
      expiry: Type.String({ description: 'YYYY-MM-DD' }),
    }),
  ),
  qty: Type.Integer({ description: 'Units of the structure still open' }),
  net_price: Type.Number({ description: 'Per share, as the opening order: positive a debit paid, negative a credit received' }),
  opened_at: Type.String(),
  awaiting_settlement: Type.Boolean({ description: 'A leg has expired: the structure is no longer a live position and settles when its expiry’s close is stored' }),
  ...riskFields,
});

export const Portfolio = Type.Object({
  cash: Type.Number({ description: 'All cash, reserved included (dollars, exact to the cent)' }),
  reserved_cash: Type.Number({ description: 'Held for resting limit buys (qty × limit) and against open option spreads (their maximum loss)' }),
  equity: Type.Number({ description: 'cash + shares at their latest close + option legs at cost' }),
  positions: Type.Array(
    Type.Object({
      symbol: Type.String(),
      qty: Type.Integer(),
      avg_price: Type.Number(),
      last_close: Type.Union([Type.Number(), Type.Null()]),
      market_value: Type.Union([Type.Number(), Type.Null()]),
      unrealized_pnl: Type.Union([Type.Number(), Type.Null()]),
    }),
  ),
  options_positions: Type.Array(
    Type.Object({
      symbol: Type.String(),
      qty: Type.Integer(),
      avg_price: Type.Number(),
      expiry: Type.String({ description: 'YYYY-MM-DD' }),
      awaiting_settlement: Type.Boolean({ description: 'Expired: no longer live; settles at intrinsic value once the underlying’s close on the expiry date is stored' }),
    }),
    { description: 'Per contract (negative: sold); a structure\'s net price is split over its legs by ratio, so see options_structures for the price paid' },
  ),
  options_structures: Type.Array(OptionStructure, { description: 'The open options positions as the structures they were traded as, oldest first' }),
  realized_pnl: Type.Number(),
  trade_cooldown_until: Type.Union([Type.String(), Type.Null()], {
    description: 'While the 72-hour cooldown after a recovery holds, when it ends (ISO 8601); null otherwise',
  }),
});
export type Portfolio = Static<typeof Portfolio>;

/** 422 `compliance_violation`: the violations at the top level, as the contract's Errors item 2 says. */
export const ComplianceViolationBody = Type.Object({
  error: Type.Literal('compliance_violation'),
  message: Type.String(),
  violations: Type.Array(Violation),
});

/** 403 `trade_cooldown`: `until` is when orders are taken again. */
export const TradeCooldownBody = Type.Object({ error: Type.Literal('trade_cooldown'), message: Type.String(), until: Type.String() });

/** Every order refusal: `{error, message}`, plus `violations` for compliance, `until` for the cooldown. */
export const OrderRefusal = Type.Object({
  error: Type.String(),
  message: Type.String(),
  violations: Type.Optional(Type.Array(Violation)),
  until: Type.Optional(Type.String()),
  details: Type.Optional(Type.Array(Type.Object({ field: Type.Optional(Type.String()), message: Type.String() }, { additionalProperties: true }))),
});
export type OrderRefusal = Static<typeof OrderRefusal>;
