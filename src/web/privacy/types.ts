/**
 * The data-rights API as the web app reads it (DESIGN "Data rights"): the server's own TypeBox schemas, so the
 * Privacy and data page and the routes cannot drift apart. Type-only imports: nothing of the server is bundled.
 */
import type { Static } from 'typebox';
import type {
  Erased as ErasedSchema,
  ExportQueued as ExportQueuedSchema,
  ExportSummary as ExportSummarySchema,
  Profile as ProfileSchema,
  ProfileBody as ProfileBodySchema,
  RetentionRows as RetentionRowsSchema,
} from '../../privacy/privacy.schema';

/** `GET /api/gdpr/exports`, one export. */
export type ExportView = Static<typeof ExportSummarySchema>;
export type ExportStatus = ExportView['status'];
/** `POST /api/gdpr/export` (202). */
export type ExportQueued = Static<typeof ExportQueuedSchema>;

/** `PATCH /api/gdpr/profile` answer. */
export type ProfileView = Static<typeof ProfileSchema>;
/** `PATCH /api/gdpr/profile` body: `credential` (a fresh step-up assertion) with an email change. */
export type ProfilePatch = Static<typeof ProfileBodySchema>;

/** `POST /api/gdpr/erase` answer. */
export type ErasureView = Static<typeof ErasedSchema>;

/** `GET /api/gdpr/retention`, one row. */
export type RetentionRow = Static<typeof RetentionRowsSchema>[number];
