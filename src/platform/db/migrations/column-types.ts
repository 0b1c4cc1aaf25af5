import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/** Column types that differ between SQLite and PostgreSQL, so one migration serves both. */
export function columnTypes(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    uuid: postgres ? 'uuid' : 'text',
    timestamp: postgres ? 'timestamptz' : 'text',
    date: postgres ? 'date' : 'text',
    bytes: postgres ? 'bytea' : 'blob',
    double: 'double precision',
    autoIncrement: postgres ? 'bigserial' : 'integer',
    /** A column referencing an auto-increment id. */
    bigintRef: postgres ? 'bigint' : 'integer',
    byteLength: postgres ? 'octet_length' : 'length',
    autoIncrementPrimaryKey: (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()),
  } as const;
}
