import type { Insertable, Selectable } from 'kysely';
import type { DbOrTx } from '../platform/db/database.js';
import type { OptionStructuresTable } from '../platform/db/schema.js';

export type StructureRow = Selectable<OptionStructuresTable>;

/** The user's open structures, oldest first (the order closes take them in). */
export async function listStructures(db: DbOrTx, userId: string): Promise<StructureRow[]> {
  return db.selectFrom('option_structures').selectAll().where('user_id', '=', userId).orderBy('opened_at').orderBy('id').execute();
}

export async function insertStructure(db: DbOrTx, structure: Insertable<OptionStructuresTable>): Promise<void> {
  await db.insertInto('option_structures').values(structure).execute();
}

export async function updateStructureQty(db: DbOrTx, id: string, qty: number, now: string): Promise<void> {
  await db.updateTable('option_structures').set({ qty, updated_at: now }).where('id', '=', id).execute();
}

export async function deleteStructuresById(db: DbOrTx, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('option_structures').where('id', 'in', ids).execute();
}

export async function deleteStructures(db: DbOrTx, userId: string): Promise<void> {
  await db.deleteFrom('option_structures').where('user_id', '=', userId).execute();
}

/** A structure's legs and net price after some of its legs settled. */
export async function updateStructureLegs(db: DbOrTx, id: string, change: { legs: string; net_price: number }, now: string): Promise<void> {
  await db.updateTable('option_structures').set({ ...change, updated_at: now }).where('id', '=', id).execute();
}
