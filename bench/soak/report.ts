import type { SoakResult } from './soak.js';

const SHOWN_PROBLEMS = 10;

/** One setup's figures as the markdown pasted into docs/benchmarks.md ("Soak"). */
export function markdownReport(result: SoakResult): string {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  const errors = Object.entries(result.statuses).filter(([status]) => Number(status) >= 400 || status === '0');
  const lines = [
    `### Setup ${result.title}`,
    '',
    `${result.at}, ${result.server}, node ${result.machine.node}, ${result.machine.cpus} cores (${result.machine.model ?? 'unknown'}).`,
    `${result.users} users for ${result.seconds_asked} s (ran ${result.seconds_ran} s with the journeys under way finishing): ` +
      `${result.journeys_completed} journeys completed (p50 ${result.journey_p50_s} s, p99 ${result.journey_p99_s} s), ${result.journeys_failed} failed; ` +
      `${result.requests} requests, ${result.requests_per_second} req/s.`,
    `Load average (1 / 5 / 15 min) before ${load(result.load_average_before)}, after ${load(result.load_average_after)}.` +
      (result.forwarded ? ` The balancer sent ${result.forwarded.join(' and ')} requests to the two instances.` : ''),
    '',
    '| route | requests | req/s | p50 ms | p99 ms | statuses |',
    '|---|---:|---:|---:|---:|---|',
    ...result.routes.map(
      (r) => `| \`${r.route}\` | ${r.requests} | ${r.per_second} | ${r.p50_ms} | ${r.p99_ms} | ${Object.entries(r.statuses).map(([s, n]) => `${s}×${n}`).join(' ')} |`,
    ),
    '',
    '| wait (the mail goes through the job worker) | count | p50 s | p99 s |',
    '|---|---:|---:|---:|',
    ...result.waits.map((w) => `| ${w.what} | ${w.count} | ${w.p50_s} | ${w.p99_s} |`),
    '',
    `Errors by status: ${errors.length === 0 ? 'none' : errors.map(([s, n]) => `${s === '0' ? 'no answer' : s}×${n}`).join(', ')} (5xx: ${result.server_errors}).`,
    '',
    '| process | RSS at start MB | RSS max MB | RSS at end MB |',
    '|---|---:|---:|---:|',
    ...result.rss.map((r) => `| ${r.process} | ${r.start_mb} | ${r.max_mb} | ${r.end_mb} |`),
    '',
    result.inconsistencies.length === 0
      ? `Consistency: ${result.accounts_checked} accounts checked — cash equals the initial cash and the fills to the cent, every acknowledged order stored, one export ready and one mail of each kind, the audit rows of every action: all hold.`
      : `Consistency: **${result.inconsistencies.length} problems** in ${result.accounts_checked} accounts, such as:\n${result.inconsistencies.slice(0, SHOWN_PROBLEMS).map((p) => `- ${p}`).join('\n')}`,
    ...(result.failures.length === 0 ? [] : ['', `**Failed journeys (${result.failures.length})**, such as:`, ...result.failures.slice(0, SHOWN_PROBLEMS).map((f) => `- ${f}`)]),
    '',
  ];
  return lines.join('\n');
}
