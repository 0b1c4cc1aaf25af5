import { performance } from 'node:perf_hooks';
import { amountCents } from '../../src/trading/money.js';
import { SoftwareAuthenticator } from '../../test/helpers/software-authenticator.js';
import type { MailCatcher } from './mail-catcher.js';
import type { Recorder } from './recorder.js';

/** The origin the simulated browsers report (the instances' PUBLIC_ORIGIN, so the WebAuthn RP ID is `localhost`). */
export const ORIGIN = 'http://localhost:3000';
/** How long a person waits for a mail before the journey counts as failed. */
const MAIL_TIMEOUT_MS = 60_000;
/** How long one request may take before the journey counts as failed (a hang is a failure, not a slow answer). */
const REQUEST_TIMEOUT_MS = 60_000;

export const VERIFY_SUBJECT = /^Confirm your email address/;
export const EXPORT_READY_SUBJECT = /^Your tradelab data export is ready/;

/** An order the service acknowledged, as the client saw it. */
export interface PlacedOrder {
  id: string;
  side: 'buy' | 'sell';
  qty: number;
  status: string;
  fill_price: number | null;
}

/** What one pass of the journey created: the account and what the client was told, for the checks afterwards. */
export interface JourneyRecord {
  email: string;
  userId: string;
  strategies: number;
  strategyUpdates: number;
  orders: PlacedOrder[];
  canceled: number;
  exportId: string;
  /** The cash the client expects from its own fills, in cents. */
  expectedCashCents: number;
  /** The cash `GET portfolio` answered, in cents. */
  answeredCashCents: number;
}

export class JourneyFailure extends Error {}

export const INITIAL_CASH_CENTS = 100_000 * 100;

/**
 * One simulated person from sign-up to data export, through `baseUrl` (the load balancer or the one process):
 * register with a passkey, confirm the address from the mail, sign in, build two strategies and edit one, check a
 * trade against one, run a legacy and a library backtest, trade on paper (market and limit, one resting order
 * canceled, one left resting), ask for a copy of their data, download it once the mail says so, and sign out.
 * Every answer is checked; anything unexpected throws a `JourneyFailure`.
 */
export async function runJourney(baseUrl: string, n: number, mail: MailCatcher, recorder: Recorder): Promise<JourneyRecord> {
  const http = new JourneyClient(baseUrl, clientAddress(n), recorder);
  const authenticator = new SoftwareAuthenticator({ origin: ORIGIN, algorithm: 'ES256' });
  const email = `soak-${n}-${process.pid}-${Date.now().toString(36)}@example.com`;

  const registerOptions = await http.call('POST /api/auth/register/options', { body: { email, display_name: `Soak ${n}` } }, 200);
  const registered = await http.call('POST /api/auth/register/verify', { body: authenticator.createCredential(registerOptions as never) }, 201);
  const userId = (registered as { user_id: string }).user_id;

  let waitBegan = performance.now();
  const verification = await mail.waitFor(email, VERIFY_SUBJECT, MAIL_TIMEOUT_MS);
  recorder.addWait('verification mail: registered → received over SMTP', performance.now() - waitBegan);
  const link = new URL(/http:\/\/localhost:3000\/verify-email\?token=[A-Za-z0-9_-]+/.exec(verification.mail.text ?? '')?.[0] ?? fail(`no link in "${verification.mail.subject}"`));
  // What the web page at the link does with its token.
  await http.call('GET /api/auth/email/verify', { path: `/api/auth/email/verify?token=${link.searchParams.get('token')}` }, 200);

  const loginOptions = await http.call('POST /api/auth/login/options', {}, 200);
  await http.call('POST /api/auth/login/verify', { body: authenticator.getAssertion(loginOptions as never) }, 200);

  const trend = (await http.call(
    'POST /api/strategies',
    {
      body: {
        name: `Trend ${n}`,
        strategy_type: 'equity_long',
        entry_symbol_allowlist: 'SPX',
        entry_max_position_size: 1_000_000,
        entry_rule: 'crosses_above(sma(close, 10), sma(close, 30))',
        exit_rule: 'crosses_below(sma(close, 10), sma(close, 30))',
      },
    },
    201,
  )) as { id: number };
  const condor = (await http.call('POST /api/strategies', { body: { name: `Condor ${n}`, strategy_type: 'iron_condor', credit_min_amount: 0.5 } }, 201)) as { id: number };
  await http.call('PATCH /api/strategies/:id', { path: `/api/strategies/${condor.id}`, body: { is_active: false } }, 200);
  await http.call('GET /api/strategies', { path: '/api/strategies?limit=50' }, 200);
  await http.call('POST /api/trading/compliance-check', { body: { strategy_id: trend.id, symbol: 'SPX', qty: 1, side: 'buy' } }, 200);

  await http.call('GET /api/templates', {}, 200);
  const from = 2000 + (n % 15);
  await http.call('POST /api/backtest', { body: { symbol: 'SPX', strategy: 'sma_crossover', start_date: `${from}-01-01`, end_date: '2020-12-31', initial_capital: 100_000 } }, 200);
  await http.call('POST /api/backtest/run', { body: { strategy_id: trend.id, start_date: `${from}-01-01`, end_date: '2020-12-31', symbols: ['SPX'] } }, 200);

  const orders: PlacedOrder[] = [];
  const place = async (body: Record<string, unknown>, status: 'filled' | 'accepted') => {
    const order = (await http.call('POST /api/trade-window/orders', { body: { symbol: 'SPX', client_order_id: `soak-${n}-${orders.length}`, ...body } }, 201)) as PlacedOrder;
    if (order.status !== status) fail(`order ${JSON.stringify(body)} is ${order.status}, not ${status}`);
    orders.push({ id: order.id, side: order.side, qty: order.qty, status: order.status, fill_price: order.fill_price });
    return order;
  };
  const bought = await place({ side: 'buy', qty: 3, order_type: 'market', strategy_id: trend.id }, 'filled');
  const close = bought.fill_price!;
  await place({ side: 'sell', qty: 1, order_type: 'market' }, 'filled');
  await place({ side: 'buy', qty: 1, order_type: 'limit', limit_price: roundCents(close * 1.5) }, 'filled');
  const resting = await place({ side: 'buy', qty: 2, order_type: 'limit', limit_price: roundCents(close / 2) }, 'accepted');
  await http.call('DELETE /api/trade-window/orders/:id', { path: `/api/trade-window/orders/${resting.id}` }, 200);
  orders.find((o) => o.id === resting.id)!.status = 'canceled';
  await place({ side: 'sell', qty: 1, order_type: 'limit', limit_price: roundCents(close * 2) }, 'accepted');
  const portfolio = (await http.call('GET /api/trade-window/portfolio', {}, 200)) as { cash: number };
  await http.call('GET /api/trade-window/orders', {}, 200);

  const queued = (await http.call('POST /api/gdpr/export', {}, 202)) as { id: string };
  waitBegan = performance.now();
  await mail.waitFor(email, EXPORT_READY_SUBJECT, MAIL_TIMEOUT_MS);
  recorder.addWait('export-ready mail: export asked → received over SMTP', performance.now() - waitBegan);
  const exports = (await http.call('GET /api/gdpr/exports', {}, 200)) as { id: string; status: string }[];
  const ready = exports.find((e) => e.id === queued.id);
  if (exports.length !== 1 || ready?.status !== 'ready') fail(`exports after the mail: ${JSON.stringify(exports)}`);
  const zip = await http.download(`/api/gdpr/exports/${queued.id}/download`);
  if (zip[0] !== 0x50 || zip[1] !== 0x4b) fail('the export download is not a zip');

  await http.call('POST /api/auth/logout', {}, 204);

  return {
    email,
    userId,
    strategies: 2,
    strategyUpdates: 1,
    orders,
    canceled: 1,
    exportId: queued.id,
    expectedCashCents: cashAfter(orders),
    answeredCashCents: Math.round(portfolio.cash * 100),
  };
}

/** Initial cash, less what filled buys cost and plus what filled sells brought, each fill rounded to the cent once. */
export function cashAfter(orders: readonly Pick<PlacedOrder, 'side' | 'qty' | 'status' | 'fill_price'>[]): number {
  let cents = INITIAL_CASH_CENTS;
  for (const order of orders) {
    if (order.status !== 'filled' || order.fill_price === null) continue;
    const amount = amountCents(order.qty, order.fill_price);
    cents += order.side === 'buy' ? -amount : amount;
  }
  return cents;
}

const roundCents = (price: number) => Math.round(price * 100) / 100;

function fail(message: string): never {
  throw new JourneyFailure(message);
}

/** Each journey from a network of its own (/24), as different people are: the per-network limits do not pool them. */
function clientAddress(n: number): string {
  return `10.${(n >> 8) & 255}.${n & 255}.7`;
}

/** A browser of one person: its address, its session cookie, the Origin header, each answer recorded per route. */
class JourneyClient {
  private cookie: string | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly address: string,
    private readonly recorder: Recorder,
  ) {}

  /** `route` is `METHOD /pattern`; `path` the concrete path when it differs. Answers the JSON body. */
  async call(route: string, request: { path?: string; body?: unknown }, expected: number): Promise<unknown> {
    const response = await this.send(route, request);
    const text = await response.text();
    if (response.status !== expected) fail(`${route}: ${response.status} (expected ${expected}) ${text.slice(0, 300)}`);
    const cookie = /service_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
    if (cookie !== undefined) this.cookie = cookie === '' ? null : cookie;
    return text ? JSON.parse(text) : null;
  }

  async download(path: string): Promise<Uint8Array> {
    const route = 'GET /api/gdpr/exports/:id/download';
    const response = await this.send(route, { path });
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (response.status !== 200) fail(`${route}: ${response.status} ${new TextDecoder().decode(bytes.slice(0, 300))}`);
    return bytes;
  }

  private async send(route: string, request: { path?: string; body?: unknown }): Promise<Response> {
    const [method, pattern] = route.split(' ') as [string, string];
    const begin = performance.now();
    try {
      const response = await fetch(this.baseUrl + (request.path ?? pattern), {
        method,
        headers: {
          origin: ORIGIN,
          'x-forwarded-for': this.address,
          ...(this.cookie ? { cookie: `service_session=${this.cookie}` } : {}),
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      // The body is part of the answer's time: read it before the clock stops.
      const body = await response.arrayBuffer();
      this.recorder.add({ route, status: response.status, ms: performance.now() - begin });
      return new Response(body.byteLength === 0 ? null : body, { status: response.status, headers: response.headers });
    } catch (error) {
      this.recorder.add({ route, status: 0, ms: performance.now() - begin });
      fail(`${route}: no answer (${error instanceof Error ? error.message : String(error)})`);
    }
  }
}
