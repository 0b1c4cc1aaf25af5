import pg from 'pg';

/** A transaction of the test's own holding row locks, so that a worker blocks on them mid-job. */
export interface RowLock {
  /** The backend holding the lock: sessions it blocks list it in `pg_blocking_pids`. */
  readonly pid: number;
  release(): Promise<void>;
}

/** Runs `lockingQuery` (a `select … for update`) in an open transaction on `schema` and keeps it open. */
export async function holdRowLock(url: string, schema: string, lockingQuery: string, values: unknown[]): Promise<RowLock> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  await client.query('begin');
  const locked = await client.query(lockingQuery, values);
  if (locked.rowCount === 0) throw new Error(`nothing to lock: ${lockingQuery}`);
  const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  return {
    pid,
    async release() {
      await client.query('rollback');
      await client.end();
    },
  };
}

/** True once another session waits on `lock`. */
export async function isBlockingSomeone(url: string, lock: RowLock): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ blocked: number }>('select count(*)::int as blocked from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [lock.pid]);
    return (rows[0]?.blocked ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/**
 * How many sessions wait on `lock`, directly or behind another waiter (a second waiter on a row queues behind the
 * first, so `pg_blocking_pids` names the first).
 */
export async function countBlockedBy(url: string, lock: RowLock): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ blocked: number }>(
      `with recursive waiting as (select pid, pg_blocking_pids(pid) as blockers from pg_stat_activity),
       blocked(pid) as (select pid from waiting where $1 = any(blockers) union select w.pid from waiting w join blocked b on b.pid = any(w.blockers))
       select count(*)::int as blocked from blocked`,
      [lock.pid],
    );
    return rows[0]?.blocked ?? 0;
  } finally {
    await client.end();
  }
}
