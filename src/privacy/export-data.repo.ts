import type { DbOrTx } from '../platform/db/database.js';

/**
 * The columns an export shows, per table: what a person may see of their rows. Left out on purpose: passkey
 * public keys, session ids (the SHA-256 of the cookie), orders' request hashes, and whole tables of secrets
 * (challenges, email-link token hashes).
 */
export const EXPORT_COLUMNS = {
  profile: ['id', 'email', 'email_verified_at', 'display_name', 'role', 'created_at', 'deleted_at', 'trade_cooldown_until'],
  passkeys: ['id', 'device_label', 'transports', 'aaguid', 'created_at', 'last_used_at', 'sign_count', 'backup_eligible', 'backup_state'],
  sessions: ['credential_id', 'issued_at', 'expires_at', 'revoked_at', 'last_verified_at', 'user_agent', 'ip_prefix'],
  strategies: [
    'id', 'name', 'description', 'strategy_type', 'is_active', 'entry_symbol_allowlist', 'entry_max_position_size', 'entry_allowed_sides',
    'credit_min_amount', 'exit_profit_target_pct', 'exit_stop_loss_pct', 'exit_trailing_stop_pct', 'exit_max_dte',
    'options_spec', 'volatility_symbol', 'entry_rule', 'exit_rule', 'created_at', 'updated_at',
  ],
  orders: [
    'id', 'strategy_id', 'asset_class', 'symbol', 'side', 'qty', 'order_type', 'limit_price', 'legs', 'status', 'fill_price', 'filled_at',
    'reject_reason', 'reject_message', 'violations', 'compliance_checked', 'compliance_compliant', 'client_order_id', 'rests_after',
    'settles_expiry', 'settlement_close', 'settlement_close_date', 'fill_source', 'price_at',
    'created_at', 'updated_at',
  ],
  paper_account: ['cash_cents', 'realized_pnl_cents', 'created_at', 'updated_at'],
  paper_positions: ['symbol', 'asset_class', 'qty', 'cost_cents', 'updated_at'],
  option_structures: ['id', 'underlying', 'legs', 'qty', 'net_price', 'opened_at', 'updated_at'],
  audit_entries: ['id', 'at', 'action', 'actor_user_id', 'target_kind', 'target_id', 'context'],
} as const;

export async function readProfile(db: DbOrTx, userId: string) {
  return db.selectFrom('users').select(EXPORT_COLUMNS.profile).where('id', '=', userId).execute();
}

export async function readPasskeys(db: DbOrTx, userId: string) {
  return db.selectFrom('passkey_credentials').select(EXPORT_COLUMNS.passkeys).where('user_id', '=', userId).orderBy('created_at').execute();
}

export async function readSessions(db: DbOrTx, userId: string) {
  return db.selectFrom('sessions').select(EXPORT_COLUMNS.sessions).where('user_id', '=', userId).orderBy('issued_at').execute();
}

export async function readStrategies(db: DbOrTx, userId: string) {
  return db.selectFrom('strategies').select(EXPORT_COLUMNS.strategies).where('user_id', '=', userId).orderBy('id').execute();
}

export async function readOrders(db: DbOrTx, userId: string) {
  return db.selectFrom('orders').select(EXPORT_COLUMNS.orders).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

export async function readPaperAccount(db: DbOrTx, userId: string) {
  return db.selectFrom('paper_accounts').select(EXPORT_COLUMNS.paper_account).where('user_id', '=', userId).execute();
}

export async function readPaperPositions(db: DbOrTx, userId: string) {
  return db.selectFrom('paper_positions').select(EXPORT_COLUMNS.paper_positions).where('user_id', '=', userId).orderBy('symbol').execute();
}

export async function readOptionStructures(db: DbOrTx, userId: string) {
  return db.selectFrom('option_structures').select(EXPORT_COLUMNS.option_structures).where('user_id', '=', userId).orderBy('opened_at').orderBy('id').execute();
}

/**
 * Audit entries about the user: those they made, and those whose target is their account or one of their things
 * (an order, a passkey, a strategy, an export), whoever made them: a resting order's fill and a clone signal are
 * written by the system.
 */
export async function readAuditEntries(db: DbOrTx, userId: string) {
  return db
    .selectFrom('audit_entries')
    .select(EXPORT_COLUMNS.audit_entries)
    .where((eb) => {
      const targetIn = (kind: 'order' | 'credential' | 'strategy' | 'export', ids: ReturnType<typeof idsOf>) =>
        eb.and([eb('target_kind', '=', kind), eb('target_id', 'in', ids)]);
      const idsOf = (table: 'orders' | 'passkey_credentials' | 'strategies' | 'data_exports') =>
        eb.selectFrom(table).select((s) => s.cast<string>(`${table}.id`, 'text').as('id')).where(`${table}.user_id`, '=', userId);
      return eb.or([
        eb('actor_user_id', '=', userId),
        eb.and([eb('target_kind', '=', 'user'), eb('target_id', '=', userId)]),
        targetIn('order', idsOf('orders')),
        targetIn('credential', idsOf('passkey_credentials')),
        targetIn('strategy', idsOf('strategies')),
        targetIn('export', idsOf('data_exports')),
      ]);
    })
    .orderBy('id')
    .execute();
}
