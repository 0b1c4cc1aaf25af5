import type { AuthContext } from '../auth/sessions.service.js';
import { appendAudit } from '../platform/audit/audit.js';
import { isoNow, type Clock } from '../platform/clock.js';
import type { Db, DbOrTx, DialectName } from '../platform/db/database.js';
import { BadRequest, Conflict, NotFound } from '../platform/errors.js';
import type { Page } from '../platform/http/paging.js';
import { lockUser } from '../auth/users.repo.js';
import {
  countStrategies,
  deleteStrategy,
  findStrategy,
  insertStrategy,
  listActiveStrategySummaries,
  listStrategies,
  updateStrategy,
  type StrategyChanges,
  type StrategyRow,
} from './strategies.repo.js';
import {
  MAX_STRATEGIES_PER_USER,
  STRATEGY_LIST_DEFAULT_LIMIT,
  type CreateStrategyBody,
  type PatchStrategyBody,
  type Strategy,
  type StrategyListQuery,
  type StrategyPageQuery,
} from './strategies.schema.js';
import { checkedOptionsSpec, checkedVolatilitySymbol, parseOptionsSpec } from './options-spec.js';
import { checkedRule, normalizeAllowlist, normalizeDescription, normalizeName } from './strategy-fields.js';

export interface StrategyDeps {
  readonly db: Db;
  readonly clock: Clock;
}

/** What creating a strategy needs besides: the dialect, to lock the owner while counting the library. */
export interface LibraryDeps extends StrategyDeps {
  readonly dialect: DialectName;
}

type Caller = Pick<AuthContext, 'userId'>;

/** The one serializer of a stored strategy, for the library routes, the compliance check and the backtest. */
export function strategyView(row: StrategyRow): Strategy {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description,
    strategy_type: row.strategy_type,
    is_active: Boolean(row.is_active),
    entry_symbol_allowlist: row.entry_symbol_allowlist,
    entry_max_position_size: row.entry_max_position_size,
    entry_allowed_sides: row.entry_allowed_sides,
    credit_min_amount: row.credit_min_amount,
    exit_profit_target_pct: row.exit_profit_target_pct,
    exit_stop_loss_pct: row.exit_stop_loss_pct,
    exit_trailing_stop_pct: row.exit_trailing_stop_pct,
    exit_max_dte: row.exit_max_dte,
    options_spec: parseOptionsSpec(row.options_spec),
    volatility_symbol: row.volatility_symbol,
    entry_rule: row.entry_rule,
    exit_rule: row.exit_rule,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The `:id` of a path: digits only by the route schema; here also at most 2^53 − 1, the largest id
 * JavaScript and JSON carry exactly.
 */
export function parseStrategyId(text: string): number {
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id < 1) {
    throw new BadRequest('validation_failed', `Strategy id ${text} is out of range.`, [{ field: 'params.id', message: 'must be an integer from 1 to 2^53 − 1' }]);
  }
  return id;
}

/** The caller's strategy, or 404 `not_found` (also for another user's id, so that nothing confirms it exists). */
export async function loadOwnStrategy(db: DbOrTx, caller: Caller, id: number): Promise<StrategyRow> {
  const row = await findStrategy(db, caller.userId, id);
  if (!row) throw strategyNotFound(id);
  return row;
}

export async function getMyStrategy(deps: StrategyDeps, caller: Caller, id: number): Promise<Strategy> {
  return strategyView(await loadOwnStrategy(deps.db, caller, id));
}

export async function listMyStrategies(
  deps: StrategyDeps,
  caller: Caller,
  query: StrategyListQuery,
): Promise<Page<Strategy>> {
  const activeOnly = query.active_only === '1';
  const page = { activeOnly, ...pageOf(query) };
  const [rows, total] = await Promise.all([listStrategies(deps.db, caller.userId, page), countStrategies(deps.db, caller.userId, activeOnly)]);
  return { items: rows.map(strategyView), total };
}

/** One page of the active-strategy picker, and how many active strategies there are. */
export async function listMyActiveStrategies(
  deps: StrategyDeps,
  caller: Caller,
  query: StrategyPageQuery,
): Promise<Page<Pick<Strategy, 'id' | 'name' | 'strategy_type'>>> {
  const [rows, total] = await Promise.all([listActiveStrategySummaries(deps.db, caller.userId, pageOf(query)), countStrategies(deps.db, caller.userId, true)]);
  return { items: rows.map((row) => ({ id: Number(row.id), name: row.name, strategy_type: row.strategy_type })), total };
}

function pageOf(query: StrategyPageQuery): { limit: number; offset: number } {
  return { limit: query.limit ?? STRATEGY_LIST_DEFAULT_LIMIT, offset: query.offset ?? 0 };
}

export async function createMyStrategy(deps: LibraryDeps, caller: Caller, body: CreateStrategyBody): Promise<Strategy> {
  const fields = { ...checkedChanges(body), ...checkedOptionsChanges(body, null) };
  const now = isoNow(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    await refuseFullLibrary(trx, deps, caller);
    const row = await insertStrategy(trx, {
      description: '',
      is_active: true,
      ...fields,
      name: fields.name ?? body.name,
      strategy_type: body.strategy_type,
      user_id: caller.userId,
      created_at: now,
      updated_at: now,
    });
    await audit(trx, deps.clock, caller, 'strategy.create', row.id, { fields: Object.keys(body).sort() });
    return strategyView(row);
  });
}

/** Changes the fields present in `body` (null clears a rule field); `updated_at` moves even when the values do not. */
export async function updateMyStrategy(deps: StrategyDeps, caller: Caller, id: number, body: PatchStrategyBody): Promise<Strategy> {
  const changes = checkedChanges(body);
  return deps.db.transaction().execute(async (trx) => {
    const optionsChanges = touchesOptions(body) ? checkedOptionsChanges(body, await loadOwnStrategy(trx, caller, id)) : {};
    const row = await updateStrategy(trx, caller.userId, id, { ...changes, ...optionsChanges, updated_at: isoNow(deps.clock) });
    if (!row) throw strategyNotFound(id);
    await audit(trx, deps.clock, caller, 'strategy.update', row.id, { fields: Object.keys(body).sort() });
    return strategyView(row);
  });
}

export async function deleteMyStrategy(deps: StrategyDeps, caller: Caller, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await deleteStrategy(trx, caller.userId, id))) throw strategyNotFound(id);
    await audit(trx, deps.clock, caller, 'strategy.delete', id);
  });
}

/**
 * The stored form of the fields present in `body`, validated beyond the schema: name trimmed, allowlist
 * normalized, rule texts checked by the grammar, a blank rule or allowlist as null. Fields absent stay absent.
 */
function checkedChanges(body: PatchStrategyBody): StrategyChanges {
  const changes: StrategyChanges = {};
  // The schema already refuses null for these three; this keeps a null from ever reaching a NOT NULL column.
  if (body.name === null || body.strategy_type === null || body.is_active === null) {
    throw new BadRequest('validation_failed', 'name, strategy_type and is_active cannot be null.');
  }
  if (body.name !== undefined) changes.name = normalizeName(body.name);
  if (body.description !== undefined) changes.description = normalizeDescription(body.description);
  if (body.strategy_type !== undefined) changes.strategy_type = body.strategy_type;
  if (body.is_active !== undefined) changes.is_active = body.is_active;
  if (body.entry_symbol_allowlist !== undefined) changes.entry_symbol_allowlist = normalizeAllowlist(body.entry_symbol_allowlist);
  if (body.entry_max_position_size !== undefined) changes.entry_max_position_size = body.entry_max_position_size;
  if (body.entry_allowed_sides !== undefined) changes.entry_allowed_sides = body.entry_allowed_sides;
  if (body.credit_min_amount !== undefined) changes.credit_min_amount = body.credit_min_amount;
  if (body.exit_profit_target_pct !== undefined) changes.exit_profit_target_pct = body.exit_profit_target_pct;
  if (body.exit_stop_loss_pct !== undefined) changes.exit_stop_loss_pct = body.exit_stop_loss_pct;
  if (body.exit_trailing_stop_pct !== undefined) changes.exit_trailing_stop_pct = body.exit_trailing_stop_pct;
  if (body.exit_max_dte !== undefined) changes.exit_max_dte = body.exit_max_dte;
  if (body.entry_rule !== undefined) changes.entry_rule = checkedRule('entry_rule', body.entry_rule);
  if (body.exit_rule !== undefined) changes.exit_rule = checkedRule('exit_rule', body.exit_rule);
  return changes;
}

type OptionsFields = Pick<StrategyRow, 'strategy_type' | 'options_spec' | 'volatility_symbol'>;

function touchesOptions(body: PatchStrategyBody): boolean {
  return body.strategy_type !== undefined || body.options_spec !== undefined || body.volatility_symbol !== undefined;
}

/**
 * `options_spec` and `volatility_symbol` checked against the strategy type they will have (the body's, else the
 * stored one): a type change re-checks the stored spec and symbol too, so an equity strategy never keeps one.
 */
function checkedOptionsChanges(body: PatchStrategyBody, current: OptionsFields | null): StrategyChanges {
  const type = body.strategy_type ?? current?.strategy_type;
  if (!type) return {};
  const changes: StrategyChanges = {};
  if (body.options_spec !== undefined) changes.options_spec = storedSpec(checkedOptionsSpec(type, body.options_spec));
  else if (current?.options_spec) checkedOptionsSpec(type, parseOptionsSpec(current.options_spec));
  if (body.volatility_symbol !== undefined) changes.volatility_symbol = checkedVolatilitySymbol(type, body.volatility_symbol);
  else if (current?.volatility_symbol) checkedVolatilitySymbol(type, current.volatility_symbol);
  return changes;
}

function storedSpec(spec: object | null): string | null {
  return spec === null ? null : JSON.stringify(spec);
}

function strategyNotFound(id: number): NotFound {
  return new NotFound('not_found', `There is no strategy ${id} in your library.`);
}

/** 409 `strategy_limit_reached` when the caller's library is full; holds the user's row so two creates cannot both pass. */
async function refuseFullLibrary(trx: DbOrTx, deps: LibraryDeps, caller: Caller): Promise<void> {
  await lockUser(trx, caller.userId, deps.dialect);
  if ((await countStrategies(trx, caller.userId, false)) >= MAX_STRATEGIES_PER_USER) {
    throw new Conflict(
      'strategy_limit_reached',
      `A library holds at most ${MAX_STRATEGIES_PER_USER.toLocaleString('en-US')} strategies; delete one you no longer use to add another.`,
    );
  }
}

async function audit(trx: DbOrTx, clock: Clock, caller: Caller, action: string, id: number, context?: Record<string, unknown>): Promise<void> {
  await appendAudit(trx, clock, { actorUserId: caller.userId, action, targetKind: 'strategy', targetId: String(id), ...(context ? { context } : {}) });
}
