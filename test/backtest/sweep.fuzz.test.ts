import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanUpProcesses, freshDataDir, randomPort, ready, startTradelab, stopped } from '../helpers/tradelab-process.js';

/**
 * POST /api/backtest/sweep with extreme grids: every numeric field (min, max, step, list values) of every parameter
 * of every template (read from GET /api/templates, so a template added later is fuzzed too) set to values that
 * break float arithmetic. Every answer must be a 4xx `{error, message}` within a deadline, never a 5xx; afterwards
 * `/healthz` answers and SIGTERM stops the server. The server is a `tradelab serve` child process, so a request
 * that spins its main thread fails this test at the deadline instead of hanging the test run (issue 29).
 * The symbol has no bars, so a grid that is valid after all (a step so large it gives one value) ends in a 4xx
 * too; a grid that is not must be refused for its grid.
 */

afterAll(cleanUpProcesses);

/** Generous for a loaded machine; a refusal takes milliseconds, a spinning main thread forever. */
const DEADLINE_MS = 5_000;
const REQUEST = { symbol: 'NOBARS', start_date: '2015-01-01', end_date: '2016-12-31', initial_capital: 10000, objective: 'sharpe_ratio' };

/** Steps that leave no usable grid: too many values, none, or no number at all. */
const BAD_STEPS: readonly unknown[] = [1e-300, 5e-324, 1e-14, 1e-9, -1e-300, -5e-324, -1, 0, -0, -Number.MAX_SAFE_INTEGER, -1e308, 'NaN', 'Infinity', '1e-300', null];
/** Steps so large the range gives its first value only: a valid grid (4xx only because the symbol has no bars). */
const HUGE_STEPS: readonly unknown[] = [1e308, Number.MAX_VALUE, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2];
/** Ends outside every template's bounds, or no number. */
const BAD_ENDS: readonly unknown[] = [1e308, -1e308, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 5e-324, -5e-324, 1e-300, 'NaN', '-Infinity', '', {}];

interface Parameter {
  readonly name: string;
  readonly min: number;
  readonly max: number;
}
interface Template {
  readonly id: string;
  readonly parameters: readonly Parameter[];
}

let port: number;
let server: ReturnType<typeof startTradelab>;
let templates: Template[];

beforeAll(async () => {
  port = randomPort();
  server = startTradelab(freshDataDir(), ['serve', '--no-worker'], { PORT: String(port), SWEEP_RATE_LIMIT: '1000000000' });
  await ready(port);
  const catalogue = (await (await fetch(`http://127.0.0.1:${port}/api/templates`)).json()) as Template[];
  templates = catalogue.filter((template) => template.parameters.length > 0);
}, 120_000);

interface Answer {
  readonly status: number;
  readonly body: { error?: unknown; message?: unknown; details?: { field?: string }[] };
}

async function sweep(strategy: string, grid: unknown): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${port}/api/backtest/sweep`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...REQUEST, strategy, grid }),
    signal: AbortSignal.timeout(DEADLINE_MS),
  }).catch((error: unknown) => {
    throw new Error(`no answer within ${DEADLINE_MS} ms to ${strategy} ${JSON.stringify(grid)}: ${String(error)}`);
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

/** A 4xx in the error shape; with `gridRefused`, one that names the grid (or the body's schema, for a value that is no number). */
function expectRefused(answer: Answer, what: string, gridRefused: boolean): void {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(400);
  expect(answer.status, what).toBeLessThan(500);
  expect(typeof answer.body.error, what).toBe('string');
  expect(typeof answer.body.message, what).toBe('string');
  if (gridRefused) {
    expect(answer.status, what).toBe(400);
    expect(['invalid_grid', 'grid_too_large', 'validation_failed'], `${what}: ${JSON.stringify(answer.body)}`).toContain(answer.body.error);
  }
}

it('refuses every extreme min, max, step and list value of every parameter of every template at once', async () => {
  expect(templates.length).toBeGreaterThan(4);
  let sent = 0;
  for (const template of templates) {
    for (const parameter of template.parameters) {
      const range = { min: parameter.min, max: parameter.max, step: 1 };
      const cases: [string, unknown, boolean][] = [
        ...BAD_STEPS.map((step): [string, unknown, boolean] => [`step ${String(step)}`, { ...range, step }, true]),
        ...HUGE_STEPS.map((step): [string, unknown, boolean] => [`step ${String(step)}`, { ...range, step }, false]),
        ...BAD_ENDS.map((min): [string, unknown, boolean] => [`min ${JSON.stringify(min)}`, { ...range, min }, true]),
        ...BAD_ENDS.map((max): [string, unknown, boolean] => [`max ${JSON.stringify(max)}`, { ...range, max }, true]),
        ...BAD_ENDS.map((value): [string, unknown, boolean] => [`list value ${JSON.stringify(value)}`, [parameter.min, value], true]),
        ['min above max', { min: parameter.max, max: parameter.min, step: 1 }, true],
        ['min -1e308 to max 1e308 by 1e-300', { min: -1e308, max: 1e308, step: 1e-300 }, true],
        ['min 2^53 to 2^53 + 2 by 1', { min: 2 ** 53, max: 2 ** 53 + 2, step: 1 }, true],
      ];
      for (const [what, axis, gridRefused] of cases) {
        expectRefused(await sweep(template.id, { [parameter.name]: axis }), `${template.id}.${parameter.name} ${what}`, gridRefused);
        sent += 1;
      }
    }
  }
  expect(sent).toBeGreaterThan(500);
}, 300_000);

it('answers random extreme grids of one or two parameters with a 4xx at once (fast-check)', async () => {
  const extreme = fc.oneof(
    fc.constantFrom<unknown>(...BAD_STEPS, ...HUGE_STEPS, ...BAD_ENDS),
    fc.double(),
    fc.double({ min: -1e-300, max: 1e-300 }),
    fc.integer(),
  );
  const axis = fc.oneof(fc.record({ min: extreme, max: extreme, step: extreme }), fc.array(extreme, { minLength: 0, maxLength: 5 }));
  const grid = fc.constantFrom(...templates).chain((template) =>
    fc
      .subarray(template.parameters.map((p) => p.name), { minLength: 1, maxLength: 2 })
      .chain((names) => fc.tuple(...names.map((name) => axis.map((value) => [name, value] as const))))
      .map((entries) => ({ strategy: template.id, grid: Object.fromEntries(entries) })),
  );
  await fc.assert(
    fc.asyncProperty(grid, async ({ strategy, grid }) => {
      expectRefused(await sweep(strategy, grid), `${strategy} ${JSON.stringify(grid)}`, false);
    }),
    { numRuns: 400 },
  );
}, 300_000);

it('still answers /healthz, and stops on SIGTERM', async () => {
  const health = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(DEADLINE_MS) });
  expect(health.status).toBe(200);
  server.kill('SIGTERM');
  const exit = await Promise.race([stopped(server), new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))]);
  expect(exit).toBe(0);
}, 30_000);
