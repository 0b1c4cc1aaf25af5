import type { DbOrTx } from '../db/database.js';
import type { AuditTargetKind } from '../db/schema.js';
import { isoNow, type Clock } from '../clock.js';
import { redact } from './redact.js';

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
  const row = await db
    .insertInto('audit_entries')
    .values({
      actor_user_id: event.actorUserId,
      action: event.action,
      target_kind: event.targetKind ?? null,
      target_id: event.targetId ?? null,
      context: event.context ? JSON.stringify(redact(event.context)) : null,
      at: isoNow(clock),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
