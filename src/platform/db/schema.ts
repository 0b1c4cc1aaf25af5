import type { ColumnType, Generated } from 'kysely';

/**
 * Row types as the application sees them on both dialects. Timestamps are ISO 8601 UTC strings
 * (`2026-01-02T03:04:05.000Z`), bar dates `YYYY-MM-DD`, booleans booleans: `database.ts` makes
 * SQLite and PostgreSQL read back the same values.
 */
export type Timestamp = string;

export interface UsersTable {
  id: string;
  /** Stored lower-cased; unique. */
  email: string;
  email_verified_at: Timestamp | null;
  display_name: string | null;
  role: ColumnType<'user' | 'admin', 'user' | 'admin' | undefined, 'user' | 'admin'>;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
  /** Stable random WebAuthn user handle (base64url); holds no personal data. */
  webauthn_user_id: string;
  /** Orders are refused until this time (set by passkey recovery). */
  trade_cooldown_until: Timestamp | null;
}

export interface PasskeyCredentialsTable {
  id: string;
  user_id: string;
  public_key: Uint8Array;
  sign_count: ColumnType<number, number | undefined, number>;
  transports: string | null;
  aaguid: string | null;
  device_label: string | null;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  backup_eligible: ColumnType<boolean, boolean | undefined, boolean>;
  backup_state: ColumnType<boolean, boolean | undefined, boolean>;
}

export type VerificationPurpose = 'initial' | 'recovery' | 'rectification';

export interface EmailVerificationsTable {
  id: string;
  user_id: string;
  email: string;
  token_hash: string;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
  purpose: VerificationPurpose;
  created_at: Timestamp;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie value; the value itself is never stored. */
  id: string;
  user_id: string;
  /** The passkey that opened the session; null once that passkey is removed (the session is revoked then). */
  credential_id: string | null;
  issued_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  user_agent: string | null;
  ip_prefix: string | null;
  /** Time of the last user-verified assertion; refresh demands a new one after 24 hours. */
  last_verified_at: Timestamp;
}

export type Ceremony = 'registration' | 'authentication' | 'add_credential' | 'step_up' | 'recovery';

export interface WebauthnChallengesTable {
  /** SHA-256 (hex) of the challenge given to the browser; the challenge itself is not kept. */
  id: string;
  ceremony: Ceremony;
  user_id: string | null;
  /** JSON: what the ceremony needs to finish (such as the email being registered). */
  context: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export type AuditTargetKind = 'user' | 'credential' | 'session' | 'order' | 'strategy' | 'export' | 'incident';

export interface AuditEntriesTable {
  id: Generated<number>;
  actor_user_id: string | null;
  action: string;
  target_kind: AuditTargetKind | null;
  target_id: string | null;
  context: string | null;
  at: Timestamp;
  /** After the erasure purge: HMAC-SHA-256 (hex) of the erased actor's id, `actor_user_id` then null. */
  actor_hash: ColumnType<string | null, string | null | undefined, string | null>;
}

export type StrategyType = 'iron_condor' | 'vertical_spread' | 'equity_long' | 'equity_short' | 'custom';

export interface StrategiesTable {
  id: Generated<number>;
  user_id: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  strategy_type: StrategyType;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  entry_symbol_allowlist: string | null;
  entry_max_position_size: number | null;
  entry_allowed_sides: 'buy' | 'sell' | 'buy,sell' | null;
  credit_min_amount: number | null;
  exit_profit_target_pct: number | null;
  exit_stop_loss_pct: number | null;
  exit_trailing_stop_pct: ColumnType<number | null, number | null | undefined, number | null>;
  exit_max_dte: number | null;
  /** JSON text of an OptionsSpec (iron_condor / vertical_spread only); null: none. */
  options_spec: ColumnType<string | null, string | null | undefined, string | null>;
  volatility_symbol: ColumnType<string | null, string | null | undefined, string | null>;
  entry_rule: string | null;
  exit_rule: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type JobState = 'queued' | 'running' | 'done' | 'dead';

export interface JobsTable {
  id: string;
  kind: string;
  /** JSON text. */
  payload: string;
  state: JobState;
  attempts: number;
  max_attempts: number;
  run_at: Timestamp;
  lease_owner: string | null;
  lease_expires_at: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface MailOutboxTable {
  id: string;
  user_id: string | null;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: Timestamp;
  sent_at: Timestamp | null;
  /** The `email_verifications` row whose link the body carries as `LINK_TOKEN_PLACEHOLDER`. */
  link_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SymbolsTable {
  symbol: string;
  name: string;
  created_at: Timestamp;
  /** Raised with every change to the symbol's bars: the cache key of in-memory series. */
  bars_version: Generated<number>;
  /** Where the symbol's bars came from; a provider refreshes only the symbols it filled. `import` when not given. */
  bars_source: ColumnType<BarsSource, BarsSource | undefined, BarsSource>;
}

export type BarsSource = 'demo' | 'import' | 'alpaca' | 'yahoo';

export interface BarsTable {
  symbol: string;
  /** `YYYY-MM-DD`. */
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface PaperAccountsTable {
  user_id: string;
  /** Whole cents (reserved cash included). */
  cash_cents: number;
  realized_pnl_cents: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PaperPositionsTable {
  user_id: string;
  /** A ticker, or an OCC option symbol. */
  symbol: string;
  asset_class: 'equity' | 'option';
  /** Shares (≥ 0), or option contracts (negative for a sold leg). */
  qty: number;
  /** What the open quantity cost, in whole cents. */
  cost_cents: number;
  updated_at: Timestamp;
}

/** An open options position as the structure it was traded as (migration 0009). */
export interface OptionStructuresTable {
  id: string;
  user_id: string;
  underlying: string;
  /** JSON array of `{symbol, side, ratio}` (compact OCC symbols). */
  legs: string;
  /** Units still open. */
  qty: number;
  /** Per share, as the opening order's net price: positive paid, negative received. */
  net_price: number;
  opened_at: Timestamp;
  updated_at: Timestamp;
}

export type OrderStatus = 'accepted' | 'filled' | 'rejected' | 'canceled';

/** Where a fill's price came from (migration 0011; docs/trading.md "Fill source"). */
export type FillSource = 'delayed_quote' | 'stored_close' | 'resting_bar' | 'modeled_price' | 'expiry_close';

export interface OrdersTable {
  id: string;
  user_id: string;
  strategy_id: number | null;
  asset_class: 'equity' | 'option';
  symbol: string;
  side: 'buy' | 'sell';
  qty: number;
  order_type: 'market' | 'limit';
  limit_price: number | null;
  /** JSON array of option legs (OCC symbols), null for equity orders. */
  legs: string | null;
  status: OrderStatus;
  fill_price: number | null;
  filled_at: Timestamp | null;
  reject_reason: string | null;
  compliance_checked: boolean | null;
  compliance_compliant: boolean | null;
  client_order_id: string | null;
  /** JSON array of `{rule, message}` of a refused order, null otherwise. */
  violations: string | null;
  reject_message: string | null;
  /** SHA-256 of the canonical request body, for idempotent retries by `client_order_id`. */
  request_hash: string | null;
  /** A resting limit order: the newest bar's date when it came to rest (a later bar may fill it). */
  rests_after: string | null;
  /** A settlement at expiry (docs/trading.md "Settlement at expiry"): the expiry settled; null for a trade. */
  settles_expiry: string | null;
  /** A settlement: the underlying's close the contracts settled at, and that close's date. */
  settlement_close: number | null;
  settlement_close_date: string | null;
  /** A filled order: where its price came from (`FillSource`); null when not filled, or filled before 0011. */
  fill_source: FillSource | null;
  /** A filled order: its price's time, an ISO 8601 instant (a delayed quote) or a session's `YYYY-MM-DD` (a bar's price). */
  price_at: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DataExportsTable {
  id: string;
  user_id: string;
  status: 'queued' | 'ready' | 'failed';
  file_path: string | null;
  byte_size: number | null;
  requested_at: Timestamp;
  ready_at: Timestamp | null;
  expires_at: Timestamp | null;
  /** The zip, written in the transaction that marks the export `ready`; cleared when the link expires. */
  bundle: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
}

/** Server keys generated once and kept in the database (`audit_actor`: the key of the erased-actor hash). */
export interface HashKeysTable {
  name: string;
  key_bytes: Uint8Array;
  created_at: Timestamp;
}

export interface BreachIncidentsTable {
  id: string;
  opened_by: string | null;
  summary: string;
  severity: 'low' | 'medium' | 'high';
  status: 'open' | 'notifying' | 'notified' | 'closed';
  detected_at: Timestamp;
  affected_users: number | null;
  /** 72 hours after detection: when the supervisory authority must have been told. */
  authority_deadline_at: Timestamp;
  notified_at: Timestamp | null;
  created_at: Timestamp;
  /** JSON: `"all"` or an array of user ids (null for incidents recorded before 0006). */
  affected: ColumnType<string | null, string | null | undefined, string | null>;
  /** Set by the `closed` step (0008). */
  closed_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export type IncidentStep = 'authority_notified' | 'note' | 'closed';

/** The runbook's later steps of an incident, oldest first by id. */
export interface BreachIncidentStepsTable {
  id: Generated<number>;
  incident_id: string;
  step: IncidentStep;
  note: string;
  /** When it happened (the admin may give an earlier time than the recording). */
  at: Timestamp;
  recorded_at: Timestamp;
  /** The admin; null once their account is purged (the `breach.step` audit row keeps their hash). */
  recorded_by: string | null;
}

/** An export whose record was purged: its link answers 410 to its owner, not 404. */
export interface ExportTombstonesTable {
  id: string;
  user_id: string;
  expired_at: Timestamp;
}

/** One row per person an incident's mail was queued for: the key that stops a second mail. */
export interface BreachRecipientsTable {
  incident_id: string;
  user_id: string;
  outbox_id: string | null;
  queued_at: Timestamp;
}

export interface RateLimitCountersTable {
  key: string;
  window_started_at: Timestamp;
  count: number;
}

export interface Database {
  users: UsersTable;
  passkey_credentials: PasskeyCredentialsTable;
  email_verifications: EmailVerificationsTable;
  sessions: SessionsTable;
  webauthn_challenges: WebauthnChallengesTable;
  audit_entries: AuditEntriesTable;
  strategies: StrategiesTable;
  jobs: JobsTable;
  mail_outbox: MailOutboxTable;
  symbols: SymbolsTable;
  bars: BarsTable;
  paper_accounts: PaperAccountsTable;
  paper_positions: PaperPositionsTable;
  orders: OrdersTable;
  option_structures: OptionStructuresTable;
  data_exports: DataExportsTable;
  breach_incidents: BreachIncidentsTable;
  breach_recipients: BreachRecipientsTable;
  breach_incident_steps: BreachIncidentStepsTable;
  export_tombstones: ExportTombstonesTable;
  rate_limit_counters: RateLimitCountersTable;
  hash_keys: HashKeysTable;
}

/** Columns stored as 0/1 by SQLite that read back as booleans. */
export const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set([
  'backup_eligible',
  'backup_state',
  'is_active',
  'compliance_checked',
  'compliance_compliant',
]);
