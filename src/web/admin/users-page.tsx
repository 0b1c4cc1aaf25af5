import type { Static } from 'typebox';
import { useEffect, useState } from 'preact/hooks';
import { api, describeError } from '../api';
import type { AdminUser } from '../../admin/admin.schema';
import { Notice, TextField } from '../ui/form';
import { formatDay, NONE } from '../ui/format';
import { AdminPage } from './admin-page';

type User = Static<typeof AdminUser>;

/** `/admin/users`: accounts with the minimal data the API gives, searchable on email. Each search is audited. */
export function AdminUsersPage() {
  return <AdminPage title="Users">{() => <UsersList />}</AdminPage>;
}

function UsersList() {
  const [q, setQ] = useState('');
  const [shown, setShown] = useState<{ users: User[]; total: number } | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const load = async (search: string) => {
    setProblem(undefined);
    try {
      const { data, headers } = await api.getWithHeaders<User[]>(`/api/admin/users?${new URLSearchParams(search ? { q: search } : {})}`);
      setShown({ users: data, total: Number(headers.get('x-total-count') ?? data.length) });
    } catch (error) {
      setProblem(describeError(error));
    }
  };
  useEffect(() => void load(''), []);
  return (
    <>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          void load(q);
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
              {shown.total} {shown.total === 1 ? 'account' : 'accounts'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
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
    </>
  );
}
