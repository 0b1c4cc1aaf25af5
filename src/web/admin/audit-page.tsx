import type { Static } from 'typebox';
import { useEffect, useState } from 'preact/hooks';
import { api, describeError } from '../api';
import type { AuditEntry } from '../../admin/admin.schema';
import { Notice, TextField } from '../ui/form';
import { NONE } from '../ui/format';
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

function AuditSearch() {
  const [filter, setFilter] = useState<Filter>({ action: '', actor_user_id: '', target_id: '' });
  const [shown, setShown] = useState<{ entries: Entry[]; total: number } | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const search = async (current: Filter) => {
    setProblem(undefined);
    const query = new URLSearchParams(Object.entries(current).filter(([, value]) => value.trim() !== '').map(([k, v]) => [k, v.trim()]));
    try {
      const { data, headers } = await api.getWithHeaders<Entry[]>(`/api/admin/audit?${query}`);
      setShown({ entries: data, total: Number(headers.get('x-total-count') ?? data.length) });
    } catch (error) {
      setProblem(describeError(error));
    }
  };
  useEffect(() => void search(filter), []);
  return (
    <>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          void search(filter);
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
              {shown.total} {shown.total === 1 ? 'entry' : 'entries'}, newest first
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
    </>
  );
}
