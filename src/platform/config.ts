import path from 'node:path';
import { isIP } from 'node:net';

export type AuthRollout = 'off' | 'beta' | 'ga';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Everything the process reads from its environment, read once, validated and frozen. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** The origin browsers use to reach us; state-changing requests must carry it, WebAuthn binds to it. */
  readonly publicOrigin: string;
  /** WebAuthn relying-party id: the host name of `publicOrigin`. */
  readonly rpId: string;
  readonly dataDir: string;
  /** `null` means the embedded SQLite file at `sqlitePath`. */
  readonly databaseUrl: string | null;
  /** PostgreSQL schema holding tradelab's tables. */
  readonly databaseSchema: string;
  readonly sqlitePath: string;
  /** `null` means mail is written as `.eml` files under `mailDir`. */
  readonly smtpUrl: string | null;
  readonly mailDir: string;
  readonly mailFrom: string;
  readonly authV1: AuthRollout;
  readonly authBetaAllowlist: readonly string[];
  readonly flagBacktestStrategyLibrary: boolean;
  readonly flagTradeWindowComplianceEnforcement: boolean;
  readonly redisUrl: string | null;
  readonly logLevel: LogLevel;
  readonly bodyLimitBytes: number;
  /** Which proxies' `X-Forwarded-For` to believe: none (false), or their addresses/CIDRs. */
  readonly trustProxy: false | readonly string[];
  /** Where bars the store lacks come from: `yahoo` (no key; the default without Alpaca keys), `alpaca`, or `none` (offline). */
  readonly marketDataProvider: MarketDataProviderName;
  /**
   * Alpaca Market Data v2 when it is the provider (`MARKET_DATA_PROVIDER=alpaca`, the default with both keys set), else
   * `null`: what reads it (the real-time feed, GET /api/data-feeds) then treats the server as having no subscription.
   */
  readonly alpaca: AlpacaConfig | null;
  readonly yahoo: YahooConfig;
  /** Legacy backtest/compare requests allowed per minute per client prefix. */
  readonly legacyBacktestRateLimit: number;
  /** The continuously compounded risk-free rate the options backtest's Black–Scholes prices use (0.04 = 4 %; default 0). */
  readonly optionsRiskFreeRate: number;
  /** Parameter sweeps (POST /api/backtest/sweep) allowed per minute per client prefix; Monte Carlo runs (POST /api/backtest/monte-carlo) likewise, counted apart. */
  readonly sweepRateLimit: number;
  /** How long a client has to send its request headers, then its whole request; and how long a connection may idle. */
  readonly timeouts: ConnectionTimeouts;
  /** After SIGTERM, how long open connections get to finish before they are closed. */
  readonly shutdownTimeoutMs: number;
}

/** The HTTP server's clocks on its clients (docs/platform-decisions.md, "Timeouts"). */
export interface ConnectionTimeouts {
  readonly headersMs: number;
  readonly requestMs: number;
  /** No bytes either way for this long, mid-request or mid-response: the connection is closed. */
  readonly idleMs: number;
  /** Between two requests on one kept-alive connection. */
  readonly keepAliveMs: number;
}

export interface AlpacaConfig {
  readonly keyId: string;
  readonly secretKey: string;
  /** Base URL of the data API (tests point it at a local server). */
  readonly dataUrl: string;
  /** How long one provider request may take before it is a 504 `provider_timeout`. */
  readonly timeoutMs: number;
}

export type MarketDataProviderName = 'yahoo' | 'alpaca' | 'none';

export interface YahooConfig {
  /** Where the chart requests go instead of Yahoo's own host (an operator's proxy; tests' local server). */
  readonly baseUrl: string;
  /** How long one provider request may take before it is a 504 `provider_timeout`. */
  readonly timeoutMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const AUTH_ROLLOUTS: readonly AuthRollout[] = ['off', 'beta', 'ga'];
const MARKET_DATA_PROVIDERS: readonly MarketDataProviderName[] = ['yahoo', 'alpaca', 'none'];
const TRUE_WORDS = ['1', 'true', 'on', 'yes'];
const FALSE_WORDS = ['0', 'false', 'off', 'no'];

/**
 * Reads and validates the configuration. Every bad variable is reported at once, each by name,
 * so an operator fixes them in one round.
 */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };

  const port = parseInteger('PORT', read('PORT') ?? '3000', 0, 65535, problems);
  const host = read('HOST') ?? '127.0.0.1';
  const publicOrigin = parseOrigin('PUBLIC_ORIGIN', read('PUBLIC_ORIGIN') ?? 'http://localhost:3000', problems);
  const dataDir = path.resolve(cwd, read('DATA_DIR') ?? './data');
  const databaseUrl = parseUrl('DATABASE_URL', read('DATABASE_URL'), ['postgres:', 'postgresql:'], problems);
  const databaseSchema = read('DATABASE_SCHEMA') ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    problems.push(`DATABASE_SCHEMA must be a lower-case SQL identifier (letters, digits, _), got "${databaseSchema}"`);
  }
  const smtpUrl = parseUrl('SMTP_URL', read('SMTP_URL'), ['smtp:', 'smtps:'], problems);
  const mailFrom = read('MAIL_FROM') ?? 'tradelab <no-reply@localhost>';
  if (!/^[^<>]*<?[^\s@<>]+@[^\s@<>]+>?$/.test(mailFrom)) {
    problems.push(`MAIL_FROM must be an address such as "tradelab <no-reply@example.com>", got "${mailFrom}"`);
  }
  const authV1 = parseChoice('AUTH_V1', read('AUTH_V1') ?? 'ga', AUTH_ROLLOUTS, problems);
  const authBetaAllowlist = (read('AUTH_BETA_ALLOWLIST') ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  for (const email of authBetaAllowlist) {
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) problems.push(`AUTH_BETA_ALLOWLIST has "${email}", which is not an email address`);
  }
  const flagBacktestStrategyLibrary = parseFlag('FLAG_BACKTEST_STRATEGY_LIBRARY', read('FLAG_BACKTEST_STRATEGY_LIBRARY') ?? '1', problems);
  const flagTradeWindowComplianceEnforcement = parseFlag(
    'FLAG_TRADE_WINDOW_COMPLIANCE_ENFORCEMENT',
    read('FLAG_TRADE_WINDOW_COMPLIANCE_ENFORCEMENT') ?? '0',
    problems,
  );
  const redisUrl = parseUrl('REDIS_URL', read('REDIS_URL'), ['redis:', 'rediss:'], problems);
  const logLevel = parseChoice('LOG_LEVEL', read('LOG_LEVEL') ?? 'info', LOG_LEVELS, problems);
  const bodyLimitBytes = parseInteger('BODY_LIMIT_BYTES', read('BODY_LIMIT_BYTES') ?? String(1024 * 1024), 1024, 64 * 1024 * 1024, problems);

  const trustProxy = parseTrustProxy('TRUST_PROXY', read('TRUST_PROXY'), problems);
  const alpaca = parseAlpaca(read, problems);
  const yahoo = parseYahoo(read, problems);
  const marketDataProvider = parseMarketDataProvider(read('MARKET_DATA_PROVIDER'), alpaca, problems);
  const legacyBacktestRateLimit = parseInteger('LEGACY_BACKTEST_RATE_LIMIT', read('LEGACY_BACKTEST_RATE_LIMIT') ?? '120', 1, 1_000_000_000, problems);
  const optionsRiskFreeRate = parseRate('OPTIONS_RISK_FREE_RATE', read('OPTIONS_RISK_FREE_RATE') ?? '0', problems);
  const sweepRateLimit = parseInteger('SWEEP_RATE_LIMIT', read('SWEEP_RATE_LIMIT') ?? '20', 1, 1_000_000_000, problems);
  const timeouts = parseTimeouts(read, problems);
  const shutdownTimeoutMs = parseInteger('SHUTDOWN_TIMEOUT_MS', read('SHUTDOWN_TIMEOUT_MS') ?? '10000', 100, 600_000, problems);

  // The single-operator mode has no accounts, so it must never be reachable from another machine.
  if (authV1 === 'off' && !isLoopback(host)) {
    problems.push(`AUTH_V1=off runs without accounts and is only allowed on a loopback HOST (127.0.0.1, ::1, localhost), got "${host}"`);
  }

  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    port,
    host,
    publicOrigin,
    rpId: new URL(publicOrigin).hostname,
    dataDir,
    databaseUrl,
    databaseSchema,
    sqlitePath: path.join(dataDir, 'tradelab.sqlite'),
    smtpUrl,
    mailDir: path.join(dataDir, 'mail'),
    mailFrom,
    authV1,
    authBetaAllowlist: Object.freeze(authBetaAllowlist),
    flagBacktestStrategyLibrary,
    flagTradeWindowComplianceEnforcement,
    redisUrl,
    logLevel,
    bodyLimitBytes,
    trustProxy,
    marketDataProvider,
    alpaca: marketDataProvider === 'alpaca' ? alpaca : null,
    yahoo,
    legacyBacktestRateLimit,
    optionsRiskFreeRate,
    sweepRateLimit,
    timeouts,
    shutdownTimeoutMs,
  });
}

function parseTimeouts(read: (name: string) => string | undefined, problems: string[]): ConnectionTimeouts {
  const ms = (name: string, fallback: number) => parseInteger(name, read(name) ?? String(fallback), 100, 3_600_000, problems);
  const timeouts = {
    headersMs: ms('HEADERS_TIMEOUT_MS', 10_000),
    requestMs: ms('REQUEST_TIMEOUT_MS', 30_000),
    idleMs: ms('IDLE_TIMEOUT_MS', 60_000),
    keepAliveMs: ms('KEEP_ALIVE_TIMEOUT_MS', 72_000),
  };
  if (timeouts.headersMs > timeouts.requestMs) {
    problems.push(`HEADERS_TIMEOUT_MS (${timeouts.headersMs}) must not exceed REQUEST_TIMEOUT_MS (${timeouts.requestMs}): the headers are part of the request`);
  }
  return Object.freeze(timeouts);
}

function parseAlpaca(read: (name: string) => string | undefined, problems: string[]): AlpacaConfig | null {
  const keyId = read('ALPACA_KEY_ID');
  const secretKey = read('ALPACA_SECRET_KEY');
  const dataUrl = parseUrl('ALPACA_DATA_URL', read('ALPACA_DATA_URL') ?? 'https://data.alpaca.markets', ['https:', 'http:'], problems);
  const timeoutMs = parseInteger('ALPACA_TIMEOUT_MS', read('ALPACA_TIMEOUT_MS') ?? '10000', 100, 120000, problems);
  if ((keyId === undefined) !== (secretKey === undefined)) {
    problems.push('ALPACA_KEY_ID and ALPACA_SECRET_KEY go together: set both, or neither to use only stored bars');
    return null;
  }
  if (keyId === undefined || secretKey === undefined || dataUrl === null) return null;
  return Object.freeze({ keyId, secretKey, dataUrl: dataUrl.replace(/\/+$/, ''), timeoutMs });
}

function parseYahoo(read: (name: string) => string | undefined, problems: string[]): YahooConfig {
  const baseUrl = parseUrl('YAHOO_BASE_URL', read('YAHOO_BASE_URL') ?? 'https://query2.finance.yahoo.com', ['https:', 'http:'], problems);
  const timeoutMs = parseInteger('YAHOO_TIMEOUT_MS', read('YAHOO_TIMEOUT_MS') ?? '10000', 100, 120000, problems);
  return Object.freeze({ baseUrl: (baseUrl ?? '').replace(/\/+$/, ''), timeoutMs });
}

/** Unset: Alpaca when its keys are set, else Yahoo (which needs none). `alpaca` without the keys is refused. */
function parseMarketDataProvider(raw: string | undefined, alpaca: AlpacaConfig | null, problems: string[]): MarketDataProviderName {
  if (raw === undefined) return alpaca === null ? 'yahoo' : 'alpaca';
  const provider = parseChoice('MARKET_DATA_PROVIDER', raw, MARKET_DATA_PROVIDERS, problems);
  if (provider === 'alpaca' && alpaca === null) problems.push('MARKET_DATA_PROVIDER=alpaca needs ALPACA_KEY_ID and ALPACA_SECRET_KEY');
  return provider;
}

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function parseInteger(name: string, raw: string, min: number, max: number, problems: string[]): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    return min;
  }
  return value;
}

/** A yearly rate as a decimal fraction, −0.1 to 0.5 (a percentage such as "4" would be 400 %: refused). */
function parseRate(name: string, raw: string, problems: string[]): number {
  const value = Number(raw);
  if (!/^-?\d+(\.\d+)?$/.test(raw) || value < -0.1 || value > 0.5) {
    problems.push(`${name} must be a decimal fraction from -0.1 to 0.5 (0.04 = 4 %), got "${raw}"`);
    return 0;
  }
  return value;
}

function parseChoice<T extends string>(name: string, raw: string, choices: readonly T[], problems: string[]): T {
  const value = raw.toLowerCase() as T;
  if (!choices.includes(value)) {
    problems.push(`${name} must be one of ${choices.join(', ')}, got "${raw}"`);
    return choices[0]!;
  }
  return value;
}

function parseFlag(name: string, raw: string, problems: string[]): boolean {
  const value = raw.toLowerCase();
  if (TRUE_WORDS.includes(value)) return true;
  if (FALSE_WORDS.includes(value)) return false;
  problems.push(`${name} must be 1 or 0 (or true/false, on/off), got "${raw}"`);
  return false;
}

function parseOrigin(name: string, raw: string, problems: string[]): string {
  try {
    const url = new URL(raw);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === raw.replace(/\/$/, '')) return url.origin;
  } catch {
    // reported below
  }
  problems.push(`${name} must be an origin such as https://trade.example.com (scheme, host, optional port; no path), got "${raw}"`);
  return 'http://localhost';
}

function parseUrl(name: string, raw: string | undefined, protocols: readonly string[], problems: string[]): string | null {
  if (raw === undefined) return null;
  try {
    if (protocols.includes(new URL(raw).protocol)) return raw;
  } catch {
    // reported below
  }
  problems.push(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  return null;
}

/** Named ranges that Fastify's proxy-addr understands. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function parseTrustProxy(name: string, raw: string | undefined, problems: string[]): false | readonly string[] {
  if (raw === undefined || FALSE_WORDS.includes(raw.toLowerCase())) return false;
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = entries.filter((entry) => {
    if (PROXY_RANGE_NAMES.includes(entry)) return false;
    const [address = '', bits] = entry.split('/');
    const version = isIP(address);
    const maxBits = version === 4 ? 32 : 128;
    return version === 0 || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= maxBits));
  });
  if (bad.length > 0 || entries.length === 0) {
    problems.push(
      `${name} must list the proxies' addresses or CIDRs (such as 10.0.0.0/8,::1, or loopback, uniquelocal); got "${raw}"`,
    );
    return false;
  }
  return Object.freeze(entries);
}
