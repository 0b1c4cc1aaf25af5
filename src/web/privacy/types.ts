/**
 * The data-rights API as the web app reads it (docs/privacy.md, DESIGN "Data rights").
 * TODO(i15-rights): replace with type-only imports of the server's TypeBox schemas once the routes land.
 */

export type ExportStatus = 'queued' | 'building' | 'ready' | 'failed' | 'expired';

/** One export, as `POST /api/gdpr/export` (202) and `GET /api/gdpr/exports` answer it. */
export interface ExportView {
  readonly id: string;
  readonly status: ExportStatus;
  readonly requested_at: string;
  readonly ready_at?: string | null;
  readonly expires_at?: string | null;
}

/** `PATCH /api/gdpr/profile` answer. */
export interface ProfileView {
  readonly email: string;
  readonly display_name: string | null;
  readonly pending_email: string | null;
}

/** `PATCH /api/gdpr/profile` body: `credential` (a fresh step-up assertion) with an email change. */
export interface ProfilePatch {
  display_name?: string | null;
  email?: string;
  credential?: unknown;
}

/** `POST /api/gdpr/erase` answer. */
export interface ErasureView {
  readonly deleted_at: string;
  readonly purge_after: string;
}

/** `GET /api/gdpr/retention`, one row. */
export interface RetentionRow {
  readonly data: string;
  readonly kept_for: string;
  readonly why: string;
}
