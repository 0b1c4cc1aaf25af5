import type { Static } from 'typebox';
import { useState } from 'preact/hooks';
import type { AdminUser } from '../../admin/admin.schema';
import { Notice, TextField } from '../ui/form';
import { formatDay, NONE } from '../ui/format';
import { Pager, rangeText } from '../ui/pager';
import { AdminPage } from './admin-page';
import { usePagedSearch } from './use-paged-search';

type User = Static<typeof AdminUser>;

/** `/admin/users`: accounts with the minimal data the API gives, searchable on email. Each search is audited. */
export function AdminUsersPage() {
  return <AdminPage title="Users">{() => <UsersList />}</AdminPage>;
}

function UsersList() {
  const [q, setQ] = useState('');
  const { search, shown, problem, searchFor, goTo } = usePagedSearch<string, User>('/api/admin/users', '', (text): Record<string, string> => (text ? { q: text } : {}));
  return (
    <>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          searchFor(q.trim());
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
              {rangeText({ offset: shown.offset, shown: shown.rows.length, total: shown.total })} {shown.total === 1 ? 'account' : 'accounts'}
              {search ? ` with “${search}” in the email` : ''}
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
              {shown.rows.map((user) => (
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
        <Pager label="Pages of accounts" offset={shown.offset} shown={shown.rows.length} total={shown.total} go={goTo} />
      )}
    </>
  );
}
