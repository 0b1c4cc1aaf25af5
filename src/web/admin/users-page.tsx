import type { Static } from 'typebox';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describeError } from '../api';
import type { AdminUser } from '../../admin/admin.schema';
import { Notice, TextField } from '../ui/form';
import { formatDay, NONE } from '../ui/format';
import { PAGE_SIZE, Pager, rangeText } from '../ui/pager';
import { AdminPage } from './admin-page';

type User = Static<typeof AdminUser>;

/** `/admin/users`: accounts with the minimal data the API gives, searchable on email. Each search is audited. */
export function AdminUsersPage() {
  return <AdminPage title="Users">{() => <UsersList />}</AdminPage>;
}

function UsersList() {
  const [q, setQ] = useState('');
  /** The search shown and its page: paging keeps the search, a new search starts at its first page. */
  const [at, setAt] = useState({ search: '', offset: 0 });
  const [shown, setShown] = useState<{ users: User[]; total: number; offset: number } | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  // Only the latest load may show its answer: a slow one for a search or page already left is dropped.
  const loads = useRef(0);
  useEffect(() => {
    const call = (loads.current += 1);
    setProblem(undefined);
    const query = new URLSearchParams({ ...(at.search ? { q: at.search } : {}), limit: String(PAGE_SIZE), offset: String(at.offset) });
    api.getWithHeaders<User[]>(`/api/admin/users?${query}`).then(
      ({ data, headers }) => {
        if (call !== loads.current) return;
        if (data.length === 0 && at.offset > 0) return setAt({ ...at, offset: Math.max(0, at.offset - PAGE_SIZE) });
        setShown({ users: data, total: Number(headers.get('x-total-count') ?? data.length), offset: at.offset });
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
          setAt({ search: q.trim(), offset: 0 });
        }}
      >
        <TextField label="Email contains" type="search" value={q} onInput={(event) => setQ(event.currentTarget.value)} />
        <div class="actions">
          <button type="submit">Search users</button>
        </div>
      </form>
      {problem && <Notice kind="error">{problem}</Notice>}
      {shown && (
        <div class="table-scroll">
          <table>
            <caption>
              {rangeText({ offset: shown.offset, shown: shown.users.length, total: shown.total })} {shown.total === 1 ? 'account' : 'accounts'}
              {at.search ? ` with “${at.search}” in the email` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Id</th>
                <th scope="col">Role</th>
                <th scope="col">Verified</th>
                <th scope="col">Passkeys</th>
                <th scope="col">Created</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">Erased</th>
              </tr>
            </thead>
            <tbody>
              {shown.users.map((user) => (
                <tr key={user.id}>
                  <td>{user.email}</td>
                  <td>
                    <code>{user.id}</code>
                  </td>
                  <td>{user.role}</td>
                  <td>{user.email_verified ? 'yes' : 'no'}</td>
                  <td>{user.passkeys}</td>
                  <td>{formatDay(user.created_at)}</td>
                  <td>{user.last_sign_in_at ? formatDay(user.last_sign_in_at) : NONE}</td>
                  <td>{user.deleted ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shown && (
        <Pager label="Pages of accounts" offset={shown.offset} shown={shown.users.length} total={shown.total} go={(offset) => setAt({ ...at, offset })} />
      )}
    </>
  );
}
