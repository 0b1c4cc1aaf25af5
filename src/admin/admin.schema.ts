import { Type, type Static } from 'typebox';
import { AuthenticationResponse, WebAuthnOptions } from '../auth/auth.schema.js';

/** DESIGN's pagination: `limit` default 50, max 200; `offset` default 0; the total in `X-Total-Count`. */
export const ADMIN_DEFAULT_LIMIT = 50;
export const ADMIN_MAX_LIMIT = 200;

const paging = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_MAX_LIMIT, description: `default ${ADMIN_DEFAULT_LIMIT}, max ${ADMIN_MAX_LIMIT}` })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Skip this many (default 0)' })),
};

export const UsersQuery = Type.Object(
  { q: Type.Optional(Type.String({ maxLength: 254, description: 'Part of the email address (case-insensitive)' })), ...paging },
  { additionalProperties: false },
);
export type UsersQuery = Static<typeof UsersQuery>;

/** DESIGN's minimal view of an account: no display name, client address or user agent. */
export const AdminUser = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    role: Type.Union([Type.Literal('user'), Type.Literal('admin')]),
    created_at: Type.String(),
    email_verified: Type.Boolean(),
    deleted: Type.Boolean(),
    passkeys: Type.Integer({ description: 'How many passkeys the account has' }),
    last_sign_in_at: Type.Union([Type.String(), Type.Null()], { description: 'The newest session still on record' }),
  },
  { additionalProperties: false },
);
export type AdminUser = Static<typeof AdminUser>;
export const AdminUserList = Type.Array(AdminUser);

const TARGET_KINDS = ['user', 'credential', 'session', 'order', 'strategy', 'export', 'incident'] as const;

export const AuditQuery = Type.Object(
  {
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Exact action, such as `session.issue`' })),
    actor_user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'As stored (a hash for an erased user)' })),
    target_kind: Type.Optional(Type.Union(TARGET_KINDS.map((k) => Type.Literal(k)))),
    target_id: Type.Optional(Type.String({ minLength: 1, maxLength: 1400 })),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'At or after this instant' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Before this instant' })),
    ...paging,
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditEntry = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String(),
    actor_user_id: Type.Union([Type.String(), Type.Null()], { description: 'null: the system; a 64-hex HMAC for an account purged after erasure' }),
    action: Type.String(),
    target_kind: Type.Union([Type.String(), Type.Null()]),
    target_id: Type.Union([Type.String(), Type.Null()]),
    context: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], { description: 'Redacted when written' }),
  },
  { additionalProperties: false },
);
export type AuditEntry = Static<typeof AuditEntry>;
export const AuditEntryList = Type.Array(AuditEntry);

export const Severity = Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')]);

export const BreachNotifyBody = Type.Union([
  Type.Object(
    {
      summary: Type.String({ minLength: 10, maxLength: 4000, description: 'What happened and which data, in plain words: it goes into the mail' }),
      severity: Severity,
      detected_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the breach was found (default now)' })),
      affected: Type.Union([Type.Literal('all'), Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 10_000 })]),
      notify_users: Type.Optional(
        Type.Boolean({ description: 'Default true. false (severity low only): record the incident without mailing anyone; a resume mails them later' }),
      ),
      credential: Type.Optional(AuthenticationResponse),
    },
    {
      additionalProperties: false,
      description: 'A new incident. One identical (summary, severity, affected) to an incident not closed is merged into it (`merged: true`)',
    },
  ),
  Type.Object(
    { incident_id: Type.String({ format: 'uuid' }), credential: Type.Optional(AuthenticationResponse) },
    { additionalProperties: false, description: 'Resume an incident: mails only whom it has not mailed yet' },
  ),
]);
export type BreachNotifyBody = Static<typeof BreachNotifyBody>;

export const IncidentStatus = Type.Union([Type.Literal('open'), Type.Literal('notifying'), Type.Literal('notified'), Type.Literal('closed')]);

export const BreachAccepted = Type.Object({
  incident_id: Type.String(),
  authority_deadline_at: Type.String({ description: 'detected_at + 72 hours: tell the supervisory authority by then' }),
  status: IncidentStatus,
  merged: Type.Optional(Type.Literal(true, { description: 'An identical incident was open: this request resumed it instead of recording a second' })),
});

export const IncidentStepKind = Type.Union([Type.Literal('authority_notified'), Type.Literal('note'), Type.Literal('closed')]);

export const IncidentStepBody = Type.Object(
  {
    step: IncidentStepKind,
    note: Type.String({ minLength: 1, maxLength: 4000, description: 'What was done, by whom, references (an authority case number)' }),
    at: Type.Optional(Type.String({ format: 'date-time', description: 'When it happened (default now; not in the future)' })),
  },
  { additionalProperties: false },
);

export const IncidentStepView = Type.Object(
  {
    step: IncidentStepKind,
    note: Type.String(),
    at: Type.String(),
    recorded_at: Type.String(),
    recorded_by: Type.Union([Type.String(), Type.Null()], { description: 'The admin; null once their account is purged' }),
  },
  { additionalProperties: false },
);
export type IncidentStepView = Static<typeof IncidentStepView>;

export const IncidentParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const Incident = Type.Object(
  {
    id: Type.String(),
    summary: Type.String(),
    severity: Severity,
    status: IncidentStatus,
    detected_at: Type.String(),
    authority_deadline_at: Type.String(),
    created_at: Type.String(),
    notified_at: NullableString,
    closed_at: NullableString,
    opened_by: NullableString,
    affected: Type.Union([Type.Literal('all'), Type.Array(Type.String()), Type.Null()]),
    to_mail: Type.Integer({ description: 'Verified addresses the incident concerns' }),
    queued: Type.Integer({ description: 'Mails queued so far' }),
    mailed: Type.Integer({ description: 'Mails handed to the mail server' }),
    steps: Type.Array(IncidentStepView, { description: 'The runbook after the mailing, oldest first' }),
  },
  { additionalProperties: false },
);
export type Incident = Static<typeof Incident>;
export const IncidentList = Type.Array(Incident);

export const StepUpNeeded = Type.Object({
  error: Type.String(),
  message: Type.String(),
  details: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
  options: Type.Optional(WebAuthnOptions),
});
