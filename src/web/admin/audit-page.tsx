import type { Static } from 'typebox';
import { useState } from 'preact/hooks';
import type { AuditEntry } from '../../admin/admin.schema';
import { Notice, TextField } from '../ui/form';
import { NONE } from '../ui/format';
import { Pager, rangeText } from '../ui/pager';
import { AdminPage } from './admin-page';
import { usePagedSearch } from './use-paged-search';

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
  const { shown, problem, searchFor, goTo } = usePagedSearch<Filter, Entry>('/api/admin/audit', NO_FILTER, (searched) =>
    Object.fromEntries(Object.entries(searched).filter(([, value]) => value !== '')),
  );
  return (
    <>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = Object.fromEntries(Object.entries(filter).map(([name, value]) => [name, value.trim()])) as Filter;
          searchFor(trimmed);
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
              {rangeText({ offset: shown.offset, shown: shown.rows.length, total: shown.total })} {shown.total === 1 ? 'entry' : 'entries'}, newest first
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
              {shown.rows.map((entry) => (
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
        <Pager label="Pages of the audit log" offset={shown.offset} shown={shown.rows.length} total={shown.total} go={goTo} />
      )}
    </>
  );
}
