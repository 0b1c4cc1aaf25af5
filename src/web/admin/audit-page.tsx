import type { Static } from 'typebox';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describeError } from '../api';
import type { AuditEntry } from '../../admin/admin.schema';
import { Notice, TextField } from '../ui/form';
import { NONE } from '../ui/format';
import { PAGE_SIZE, Pager, rangeText } from '../ui/pager';
import { AdminPage } from './admin-page';

type Entry = Static<typeof AuditEntry>;
const FILTERS = [
  { name: 'action', label: 'Action', hint: 'Exact, such as session.issue or admin.audit_read' },
  { name: 'actor_user_id', label: 'Actor id', hint: 'As stored (a hash for an erased user)' },
  { name: 'target_id', label: 'Target id', hint: '' },
] as const;
type Filter = Record<(typeof FILTERS)[number]['name'], string>;

/** `/admin/audit`: search the audit log, newest first. Every search is itself written to the log first. */
export function AdminAuditPage() {
  return <AdminPage title="Audit log">{() => <AuditSearch />}</AdminPage>;
}

const NO_FILTER: Filter = { action: '', actor_user_id: '', target_id: '' };

function AuditSearch() {
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  /** The search shown and its page: paging keeps the filters searched, a new search starts at its first page. */
  const [at, setAt] = useState<{ filter: Filter; offset: number }>({ filter: NO_FILTER, offset: 0 });
  const [shown, setShown] = useState<{ entries: Entry[]; total: number; offset: number } | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  // Only the latest load may show its answer: a slow one for a search or page already left is dropped.
  const loads = useRef(0);
  useEffect(() => {
    const call = (loads.current += 1);
    setProblem(undefined);
    const query = new URLSearchParams(Object.entries(at.filter).filter(([, value]) => value !== ''));
    query.set('limit', String(PAGE_SIZE));
    query.set('offset', String(at.offset));
    api.getWithHeaders<Entry[]>(`/api/admin/audit?${query}`).then(
      ({ data, headers }) => {
        if (call !== loads.current) return;
        if (data.length === 0 && at.offset > 0) return setAt({ ...at, offset: Math.max(0, at.offset - PAGE_SIZE) });
        setShown({ entries: data, total: Number(headers.get('x-total-count') ?? data.length), offset: at.offset });
      },
      (error: unknown) => {
        if (call === loads.current) setProblem(describeError(error));
      },
    );
  }, [at]);
  return (
    <>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = Object.fromEntries(Object.entries(filter).map(([name, value]) => [name, value.trim()])) as Filter;
          setAt({ filter: trimmed, offset: 0 });
        }}
      >
        {FILTERS.map((f) => (
          <TextField
            key={f.name}
            label={f.label}
            {...(f.hint ? { hint: f.hint } : {})}
            value={filter[f.name]}
            onInput={(event) => setFilter({ ...filter, [f.name]: event.currentTarget.value })}
          />
        ))}
        <div class="actions">
          <button type="submit">Search the log</button>
        </div>
      </form>
      <p class="muted">Each search is recorded in this log as admin.audit_read, with what you searched for.</p>
      {problem && <Notice kind="error">{problem}</Notice>}
      {shown && (
        <div class="table-scroll">
          <table class="audit-table">
            <caption>
              {rangeText({ offset: shown.offset, shown: shown.entries.length, total: shown.total })} {shown.total === 1 ? 'entry' : 'entries'}, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">Actor</th>
                <th scope="col">Target</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {shown.entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{entry.at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</td>
                  <td>{entry.action}</td>
                  <td>{entry.actor_user_id ?? 'system'}</td>
                  <td>{entry.target_kind ? `${entry.target_kind} ${entry.target_id ?? ''}` : NONE}</td>
                  <td>
                    <code>{entry.context ? JSON.stringify(entry.context) : NONE}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shown && (
        <Pager label="Pages of the audit log" offset={shown.offset} shown={shown.entries.length} total={shown.total} go={(offset) => setAt({ ...at, offset })} />
      )}
    </>
  );
}
