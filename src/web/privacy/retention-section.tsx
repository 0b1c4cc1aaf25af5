import { useEffect, useState } from 'preact/hooks';
import { api, describeError } from '../api';
import { Notice } from '../ui/form';
import type { RetentionRow } from './types';

/** `GET /api/gdpr/retention`: what is kept, for how long and why, from the constants the purge jobs use. */
export function RetentionSection() {
  const [rows, setRows] = useState<readonly RetentionRow[] | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    api.get<RetentionRow[]>('/api/gdpr/retention').then(
      (answer) => live && setRows(answer),
      (error) => live && setProblem(`The retention table could not be loaded. ${describeError(error)}`),
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <section class="privacy__part" aria-labelledby="retention-title">
      <h2 id="retention-title">How long we keep your data</h2>
      <p>The jobs that delete old data use the same periods as this table.</p>
      {problem && <Notice kind="error">{problem}</Notice>}
      {!rows && !problem && <p class="muted">Loading…</p>}
      {rows && (
        <div class="table-scroll" role="region" aria-labelledby="retention-title" tabIndex={0}>
          <table class="retention-table">
            <caption class="visually-hidden">What we keep, for how long, and why</caption>
            <thead>
              <tr>
                <th scope="col">Data</th>
                <th scope="col">Kept for</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.data}>
                  <th scope="row">{row.data}</th>
                  <td>{row.kept_for}</td>
                  <td>{row.why}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
