import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { ALLOWED_SIDES, STRATEGY_TYPES } from './strategy-policy.js';

/** DESIGN's pagination: `limit` default 50, max 200; `offset` default 0; the total in `X-Total-Count`. */
export const STRATEGY_LIST_DEFAULT_LIMIT = 50;
export const STRATEGY_LIST_MAX_LIMIT = 200;
/** A library holds at most this many strategies (409 `strategy_limit_reached` past it). */
export const MAX_STRATEGIES_PER_USER = 1_000;

/** Limits of the text fields (checked after trimming where the field is trimmed). */
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 2000;
export const RULE_MAX = 2000;
export const ALLOWLIST_TEXT_MAX = 2000;
/** A position held longer than ten years is no "days to expiry" an options strategy means. */
export const MAX_DTE_LIMIT = 3650;

/**
 * `schema` or null, written as OpenAPI 3.0's `nullable: true` (which Ajv and fast-json-stringify read too):
 * one clear validation message ("must be >= 1") instead of the three of an anyOf with null.
 */
export function nullable<T extends TSchema>(schema: T, description?: string): TUnsafe<Static<T> | null> {
  const base = schema as TSchema & { enum?: unknown[] };
  const widened = base.enum ? { type: 'string', ...base, enum: [...base.enum, null] } : { ...base };
  return Type.Unsafe<Static<T> | null>({ ...widened, nullable: true, ...(description ? { description } : {}) });
}

/**
 * An options strategy's spec, as typed here; the ranges and which keys go with which strategy type are checked by
 * src/strategies/options-spec.ts (vertical: structure, short_delta | short_otm_pct, width, dte; iron condor:
 * short_delta | short_otm_pct, wing_width, dte).
 */
const OptionsSpecSchema = Type.Object(
  {
    structure: Type.Optional(Type.Enum(['put_credit', 'call_credit', 'put_debit', 'call_debit'], { description: 'vertical_spread only' })),
    short_delta: Type.Optional(Type.Number({ description: 'The short leg’s delta, in (0, 1) (iron condor: (0, 0.5)); or short_otm_pct' })),
    short_otm_pct: Type.Optional(Type.Number({ description: 'How far out of the money the short leg is, a fraction in (0, 1) (0.05 = 5 %)' })),
    width: Type.Optional(Type.Number({ description: 'vertical_spread: dollars between the two strikes, (0, 1000]' })),
    wing_width: Type.Optional(Type.Number({ description: 'iron_condor: dollars between each short strike and its wing, (0, 1000]' })),
    dte: Type.Optional(Type.Integer({ description: `Calendar days to expiry at the entry, 1–${MAX_DTE_LIMIT}` })),
  },
  { additionalProperties: false },
);

const StrategyType = Type.Enum([...STRATEGY_TYPES], { description: STRATEGY_TYPES.join(', ') });

/** The rule fields: optional on create, and on update `null` clears them (null means no constraint). */
const ruleFields = {
  entry_symbol_allowlist: nullable(
    Type.String({ maxLength: ALLOWLIST_TEXT_MAX }),
    'Comma-separated upper-case tickers such as "SPY,QQQ"; stored without spaces. Blank or null: no constraint',
  ),
  entry_max_position_size: nullable(Type.Number({ exclusiveMinimum: 0 }), 'Maximum dollars per trade (> 0)'),
  entry_allowed_sides: nullable(Type.Enum([...ALLOWED_SIDES]), '`buy`, `sell` or `buy,sell`'),
  credit_min_amount: nullable(Type.Number({ exclusiveMinimum: 0 }), 'Minimum net credit per share for credit strategies (> 0)'),
  exit_profit_target_pct: nullable(Type.Number({ exclusiveMinimum: 0, maximum: 10 }), 'Decimal fraction in (0, 10]; 0.20 = 20 %'),
  exit_stop_loss_pct: nullable(Type.Number({ minimum: -1, exclusiveMaximum: 0 }), 'Decimal fraction in [-1, 0); -0.50 = -50 %'),
  exit_trailing_stop_pct: nullable(
    Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }),
    'Decimal fraction in (0, 1): close when a close falls this far below the highest close since the entry (0.10 = 10 %). Backtests only; null: none',
  ),
  exit_max_dte: nullable(Type.Integer({ minimum: 1, maximum: MAX_DTE_LIMIT }), `Maximum calendar days to expiry, 1–${MAX_DTE_LIMIT}`),
  options_spec: nullable(
    OptionsSpecSchema,
    'iron_condor / vertical_spread only: how a backtest chooses the legs (docs/strategies.md "Options spec"); null: none',
  ),
  volatility_symbol: nullable(
    Type.String({ maxLength: 20 }),
    'iron_condor / vertical_spread only: the ticker of an imported volatility index (e.g. VIX) whose close / 100 prices the legs; null: realized 20-day volatility',
  ),
  entry_rule: nullable(Type.String({ maxLength: RULE_MAX }), 'Rule grammar expression; blank or null: enter on the first bar'),
  exit_rule: nullable(Type.String({ maxLength: RULE_MAX }), 'Rule grammar expression; blank or null: no rule exit'),
};

const editable = {
  name: Type.String({ minLength: 1, maxLength: NAME_MAX * 2, description: `1–${NAME_MAX} characters after trimming` }),
  description: nullable(Type.String({ maxLength: DESCRIPTION_MAX }), `At most ${DESCRIPTION_MAX} characters; null stores ""`),
  strategy_type: StrategyType,
  is_active: Type.Boolean(),
};

export const Strategy = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    strategy_type: StrategyType,
    is_active: Type.Boolean(),
    entry_symbol_allowlist: nullable(Type.String()),
    entry_max_position_size: nullable(Type.Number()),
    entry_allowed_sides: nullable(Type.Enum([...ALLOWED_SIDES])),
    credit_min_amount: nullable(Type.Number()),
    exit_profit_target_pct: nullable(Type.Number()),
    exit_stop_loss_pct: nullable(Type.Number()),
    exit_trailing_stop_pct: nullable(Type.Number()),
    exit_max_dte: nullable(Type.Integer()),
    options_spec: nullable(OptionsSpecSchema),
    volatility_symbol: nullable(Type.String()),
    entry_rule: nullable(Type.String()),
    exit_rule: nullable(Type.String()),
    created_at: Type.String({ description: 'ISO 8601 UTC' }),
    updated_at: Type.String({ description: 'ISO 8601 UTC' }),
  },
  { description: 'Strategy Library entry' },
);
export type Strategy = Static<typeof Strategy>;

export const StrategyList = Type.Array(Strategy);

export const ActiveStrategy = Type.Object({ id: Type.Integer(), name: Type.String(), strategy_type: StrategyType });
export const ActiveStrategyList = Type.Array(ActiveStrategy, { description: 'A page of the active strategies, oldest first (total in X-Total-Count)' });

const optionalOnCreate = Type.Partial(
  Type.Object({ description: editable.description, is_active: Type.Boolean({ description: 'Default true' }), ...ruleFields }),
);

export const CreateStrategyBody = Type.Object(
  { name: editable.name, strategy_type: editable.strategy_type, ...optionalOnCreate.properties },
  { additionalProperties: false },
);
export type CreateStrategyBody = Static<typeof CreateStrategyBody>;

export const PatchStrategyBody = Type.Partial(Type.Object({ ...editable, ...ruleFields }), {
  additionalProperties: false,
  minProperties: 1,
  description: 'Any subset of the fields; null clears a rule field (name, strategy_type and is_active cannot be null)',
});
export type PatchStrategyBody = Static<typeof PatchStrategyBody>;

export const StrategyListQuery = Type.Object({
  scope: Type.Optional(
    Type.Literal('library', { description: '`library`: the library whatever the mode (401 without a session); without it, a caller with no session gets the template catalogue' }),
  ),
  active_only: Type.Optional(Type.Enum(['0', '1'], { description: '`1`: active strategies only' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: STRATEGY_LIST_MAX_LIMIT, description: `default ${STRATEGY_LIST_DEFAULT_LIMIT}, max ${STRATEGY_LIST_MAX_LIMIT}` }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Skip this many (default 0)' })),
});
export type StrategyListQuery = Static<typeof StrategyListQuery>;

/** A page of the active picker: `limit` and `offset` as every list. */
export const StrategyPageQuery = Type.Pick(StrategyListQuery, ['limit', 'offset']);
export type StrategyPageQuery = Static<typeof StrategyPageQuery>;

/** Digits only (no sign, exponent or leading zero); the service refuses values above 2^53 − 1. */
export const StrategyIdParams = Type.Object({
  id: Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: 'Strategy id (a positive integer)' }),
});
export type StrategyIdParams = Static<typeof StrategyIdParams>;

/** The error body of the library's writes: ErrorResponse, whose details may carry the rule text's `column`. */
export const StrategyErrorResponse = Type.Object(
  {
    error: Type.String({ description: 'Machine-readable code, snake_case (`invalid_rule` for a rule the grammar refuses)' }),
    message: Type.String(),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.Optional(Type.String()),
          message: Type.String(),
          column: Type.Optional(Type.Integer({ description: '1-based column in the rule text (invalid_rule)' })),
        }),
      ),
    ),
  },
  { description: 'Every error has this shape; an invalid rule names its column.' },
);
