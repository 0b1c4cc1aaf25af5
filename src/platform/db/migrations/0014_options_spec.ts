import { type Kysely } from 'kysely';

/**
 * `strategies.options_spec` and `strategies.volatility_symbol` (issue 27): how an `iron_condor` or
 * `vertical_spread` strategy's legs are chosen in a library backtest (JSON text, validated by the service; see
 * src/strategies/options-spec.ts), and the imported volatility index that prices them (a ticker; null: the
 * underlying's realized 20-day volatility). Null on every strategy stored before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('strategies').addColumn('options_spec', 'text').execute();
  await db.schema.alterTable('strategies').addColumn('volatility_symbol', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('strategies').dropColumn('volatility_symbol').execute();
  await db.schema.alterTable('strategies').dropColumn('options_spec').execute();
}
