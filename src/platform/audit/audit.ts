import type { DbOrTx } from '../db/database.js';
import type { AuditTargetKind } from '../db/schema.js';
import { isoNow, type Clock } from '../clock.js';
import { redact } from './redact.js';
import { compiledOnce } from '../db/compiled-once.js';

export interface AuditEvent {
  /** The user who acted; null for the system (jobs, the operator's CLI). */
  readonly actorUserId: string | null;
  /** Dotted, such as `user.register`, `session.issue`, `dsr.export`, `admin.audit_read`. */
  readonly action: string;
  readonly targetKind?: AuditTargetKind;
  readonly targetId?: string;
  /** Free-form detail; redacted before it is stored. */
  readonly context?: Record<string, unknown>;
}

/**
 * Appends one audit entry. Pass the transaction of the change being audited so the entry and the
 * change commit together.
 */
export async function appendAudit(db: DbOrTx, clock: Clock, event: AuditEvent): Promise<number> {
  const { rows } = await db.executeQuery(
    auditInsert(db, [
      event.actorUserId,
      event.action,
      event.targetKind ?? null,
      event.targetId ?? null,
      event.context ? JSON.stringify(redact(event.context)) : null,
      isoNow(clock),
    ]),
  );
  const row = rows[0];
  if (row === undefined) throw new Error('the audit insert returned no id');
  return Number(row.id);
}

const ACTOR = '\u0000audit-actor';
const ACTION = '\u0000audit-action';
const TARGET_KIND = '\u0000audit-target-kind' as AuditTargetKind;
const TARGET_ID = '\u0000audit-target-id';
const CONTEXT = '\u0000audit-context';
const AT = '\u0000audit-at';
/** Every sign-in and most changes append an entry: the insert compiled once (issue 17). */
const auditInsert = compiledOnce([ACTOR, ACTION, TARGET_KIND, TARGET_ID, CONTEXT, AT], (db) =>
  db
    .insertInto('audit_entries')
    .values({ actor_user_id: ACTOR, action: ACTION, target_kind: TARGET_KIND, target_id: TARGET_ID, context: CONTEXT, at: AT })
    .returning('id'),
);
