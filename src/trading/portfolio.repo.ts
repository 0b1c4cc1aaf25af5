import type { Selectable } from 'kysely';
import type { DbOrTx, DialectName } from '../platform/db/database.js';
import type { PaperAccountsTable, PaperPositionsTable } from '../platform/db/schema.js';

export type AccountRow = Selectable<PaperAccountsTable>;
export type PositionRow = Selectable<PaperPositionsTable>;

/** Opens the user's paper account with `cashCents` unless it exists (a concurrent open is not an error). */
export async function insertAccountIfAbsent(db: DbOrTx, userId: string, cashCents: number, now: string): Promise<void> {
  await db
    .insertInto('paper_accounts')
    .values({ user_id: userId, cash_cents: cashCents, realized_pnl_cents: 0, created_at: now, updated_at: now })
    .onConflict((c) => c.column('user_id').doNothing())
    .execute();
}

/** The account; on PostgreSQL its row stays locked to the end of the transaction, so a user's orders are placed one at a time. */
export async function lockAccount(db: DbOrTx, userId: string, dialect: DialectName): Promise<AccountRow> {
  const query = db.selectFrom('paper_accounts').selectAll().where('user_id', '=', userId);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirstOrThrow();
}

export async function findAccount(db: DbOrTx, userId: string): Promise<AccountRow | undefined> {
  return db.selectFrom('paper_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function updateAccount(db: DbOrTx, userId: string, money: { cash_cents: number; realized_pnl_cents: number }, now: string): Promise<void> {
  await db.updateTable('paper_accounts').set({ ...money, updated_at: now }).where('user_id', '=', userId).execute();
}

export async function listPositions(db: DbOrTx, userId: string): Promise<PositionRow[]> {
  return db.selectFrom('paper_positions').selectAll().where('user_id', '=', userId).orderBy('symbol').execute();
}

export async function findPosition(db: DbOrTx, userId: string, symbol: string): Promise<PositionRow | undefined> {
  return db.selectFrom('paper_positions').selectAll().where('user_id', '=', userId).where('symbol', '=', symbol).executeTakeFirst();
}

/** Writes a position's quantity and cost (creating it when new). */
export async function upsertPosition(db: DbOrTx, position: PositionRow): Promise<void> {
  await db
    .insertInto('paper_positions')
    .values(position)
    .onConflict((c) => c.columns(['user_id', 'symbol']).doUpdateSet({ qty: position.qty, cost_cents: position.cost_cents, updated_at: position.updated_at }))
    .execute();
}

export async function deletePosition(db: DbOrTx, userId: string, symbol: string): Promise<void> {
  await db.deleteFrom('paper_positions').where('user_id', '=', userId).where('symbol', '=', symbol).execute();
}

export async function deletePositions(db: DbOrTx, userId: string): Promise<void> {
  await db.deleteFrom('paper_positions').where('user_id', '=', userId).execute();
}

/** Every user's option positions (the settlement job looks for the expired ones). */
export async function listAllOptionPositions(db: DbOrTx): Promise<Pick<PositionRow, 'user_id' | 'symbol'>[]> {
  return db.selectFrom('paper_positions').select(['user_id', 'symbol']).where('asset_class', '=', 'option').orderBy('user_id').orderBy('symbol').execute();
}
