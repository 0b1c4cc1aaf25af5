import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DbOrTx } from '../platform/db/database.js';
import type { StrategiesTable } from '../platform/db/schema.js';
import { compiledOnce } from '../platform/db/compiled-once.js';

export type StrategyRow = Selectable<StrategiesTable>;
export type NewStrategyRow = Insertable<StrategiesTable>;
/** What an update may change: never the owner, the id or the creation time. */
export type StrategyChanges = Omit<Updateable<StrategiesTable>, 'id' | 'user_id' | 'created_at'>;

/** Every query is scoped by the owner: another user's strategy is never read, changed or counted. */

export async function insertStrategy(db: DbOrTx, row: NewStrategyRow): Promise<StrategyRow> {
  return db.insertInto('strategies').values(row).returningAll().executeTakeFirstOrThrow();
}

const USER_ID = '\u0000user-id';
const STRATEGY_ID = '\u0000strategy-id';
/** Read by every library backtest and strategy page: built and compiled once per database handle (issue 17). */
const strategyLookup = compiledOnce<StrategyRow>([USER_ID, STRATEGY_ID], (db) =>
  db
    .selectFrom('strategies')
    .selectAll()
    .where('user_id', '=', USER_ID)
    // A placeholder string where the id goes: compiledOnce puts the call's id in its place.
    .where('id', '=', STRATEGY_ID as unknown as number),
);

export async function findStrategy(db: DbOrTx, userId: string, id: number): Promise<StrategyRow | undefined> {
  const { rows } = await db.executeQuery(strategyLookup(db, [userId, id]));
  return rows[0];
}

/** One page of the owner's strategies, oldest first (by id, the same order on both dialects). */
export async function listStrategies(
  db: DbOrTx,
  userId: string,
  page: { activeOnly: boolean; limit: number; offset: number },
): Promise<StrategyRow[]> {
  let query = db.selectFrom('strategies').selectAll().where('user_id', '=', userId);
  if (page.activeOnly) query = query.where('is_active', '=', true);
  return query.orderBy('id').limit(page.limit).offset(page.offset).execute();
}

export async function countStrategies(db: DbOrTx, userId: string, activeOnly: boolean): Promise<number> {
  let query = db
    .selectFrom('strategies')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId);
  if (activeOnly) query = query.where('is_active', '=', true);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The active-strategy picker: id, name and type of one page of the active strategies, oldest first. */
export async function listActiveStrategySummaries(
  db: DbOrTx,
  userId: string,
  page: { limit: number; offset: number },
): Promise<Pick<StrategyRow, 'id' | 'name' | 'strategy_type'>[]> {
  return db
    .selectFrom('strategies')
    .select(['id', 'name', 'strategy_type'])
    .where('user_id', '=', userId)
    .where('is_active', '=', true)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The updated row, or undefined when the owner has no such strategy. */
export async function updateStrategy(db: DbOrTx, userId: string, id: number, changes: StrategyChanges): Promise<StrategyRow | undefined> {
  return db.updateTable('strategies').set(changes).where('user_id', '=', userId).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Whether a row was deleted. */
export async function deleteStrategy(db: DbOrTx, userId: string, id: number): Promise<boolean> {
  const result = await db.deleteFrom('strategies').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
