import { sql } from 'kysely';
import type { DbOrTx } from '../platform/db/database.js';
import type { AuditTargetKind } from '../platform/db/schema.js';

export interface Page {
  readonly limit: number;
  readonly offset: number;
}

/** `%` and `_` match themselves in a search for part of an address. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function usersMatching(db: DbOrTx, q: string | undefined) {
  const query = db.selectFrom('users');
  return q ? query.where(sql<boolean>`users.email like ${likePattern(q.trim().toLowerCase())} escape '\\'`) : query;
}

/** One page of accounts, oldest first, with DESIGN's fields only; and how many match. */
export async function listUsers(db: DbOrTx, q: string | undefined, page: Page) {
  const rows = await usersMatching(db, q)
    .select((eb) => [
      'users.id',
      'users.email',
      'users.role',
      'users.created_at',
      'users.email_verified_at',
      'users.deleted_at',
      eb.selectFrom('passkey_credentials').select((c) => c.fn.countAll<number | string>().as('n')).whereRef('passkey_credentials.user_id', '=', 'users.id').as('passkeys'),
      eb.selectFrom('sessions').select((s) => s.fn.max('sessions.issued_at').as('at')).whereRef('sessions.user_id', '=', 'users.id').as('last_sign_in_at'),
    ])
    .orderBy('users.created_at')
    .orderBy('users.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = await usersMatching(db, q).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(total.n) };
}

export interface AuditFilter {
  readonly action?: string;
  readonly actorUserId?: string;
  readonly targetKind?: AuditTargetKind;
  readonly targetId?: string;
  readonly from?: string;
  readonly to?: string;
}

function auditMatching(db: DbOrTx, filter: AuditFilter) {
  let query = db.selectFrom('audit_entries');
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  // An erased actor is kept as a keyed hash in `actor_hash` (the purge, src/privacy): the same filter finds it.
  if (filter.actorUserId !== undefined) {
    const actor = filter.actorUserId;
    query = query.where((eb) => eb.or([eb('actor_user_id', '=', actor), eb('actor_hash', '=', actor)]));
  }
  if (filter.targetKind !== undefined) query = query.where('target_kind', '=', filter.targetKind);
  if (filter.targetId !== undefined) query = query.where('target_id', '=', filter.targetId);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<', filter.to);
  return query;
}

/** One page of audit entries, newest first; and how many match. */
export async function searchAudit(db: DbOrTx, filter: AuditFilter, page: Page) {
  const rows = await auditMatching(db, filter).selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  const total = await auditMatching(db, filter).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(total.n) };
}
