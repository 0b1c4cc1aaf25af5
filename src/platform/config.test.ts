import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopback, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has defaults that serve the app on localhost:3000 with SQLite in ./data', () => {
    const config = loadConfig({}, '/srv/tradelab');
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicOrigin: 'http://localhost:3000',
      rpId: 'localhost',
      dataDir: '/srv/tradelab/data',
      databaseUrl: null,
      sqlitePath: '/srv/tradelab/data/tradelab.sqlite',
      mailDir: '/srv/tradelab/data/mail',
      smtpUrl: null,
      authV1: 'ga',
      authBetaAllowlist: [],
      flagBacktestStrategyLibrary: true,
      flagTradeWindowComplianceEnforcement: false,
      redisUrl: null,
      logLevel: 'info',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      PUBLIC_ORIGIN: 'https://trade.example.com/',
      DATA_DIR: '/var/lib/tradelab',
      DATABASE_URL: 'postgres://app@db:5432/tradelab',
      SMTP_URL: 'smtps://user:pw@mail.example.com:465',
      MAIL_FROM: 'tradelab <no-reply@trade.example.com>',
      AUTH_V1: 'beta',
      AUTH_BETA_ALLOWLIST: 'Ann@Example.com, bo@example.com',
      FLAG_BACKTEST_STRATEGY_LIBRARY: '0',
      FLAG_TRADE_WINDOW_COMPLIANCE_ENFORCEMENT: '1',
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      publicOrigin: 'https://trade.example.com',
      rpId: 'trade.example.com',
      databaseUrl: 'postgres://app@db:5432/tradelab',
      authV1: 'beta',
      authBetaAllowlist: ['ann@example.com', 'bo@example.com'],
      flagBacktestStrategyLibrary: false,
      flagTradeWindowComplianceEnforcement: true,
      redisUrl: 'redis://127.0.0.1:6379',
      logLevel: 'debug',
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PUBLIC_ORIGIN: 'localhost:3000' }, 'PUBLIC_ORIGIN'],
    [{ PUBLIC_ORIGIN: 'https://trade.example.com/app' }, 'PUBLIC_ORIGIN'],
    [{ DATABASE_URL: 'mysql://db/tradelab' }, 'DATABASE_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ MAIL_FROM: 'nobody' }, 'MAIL_FROM'],
    [{ AUTH_V1: 'maybe' }, 'AUTH_V1'],
    [{ AUTH_BETA_ALLOWLIST: 'ann@example.com,not-an-email' }, 'AUTH_BETA_ALLOWLIST'],
    [{ FLAG_BACKTEST_STRATEGY_LIBRARY: 'yes please' }, 'FLAG_BACKTEST_STRATEGY_LIBRARY'],
    [{ FLAG_TRADE_WINDOW_COMPLIANCE_ENFORCEMENT: '2' }, 'FLAG_TRADE_WINDOW_COMPLIANCE_ENFORCEMENT'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TRUST_PROXY: 'the load balancer' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/40' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '2' }, 'TRUST_PROXY'],
    [{ AUTH_V1: 'off', HOST: '0.0.0.0' }, 'AUTH_V1=off'],
  ])('refuses %j, naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it.each([
    [undefined, false],
    ['0', false],
    ['10.0.0.0/8, ::1', ['10.0.0.0/8', '::1']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
  ])('reads TRUST_PROXY=%s as %j', (raw, expected) => {
    expect(loadConfig(raw === undefined ? {} : { TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it('reports every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });

  it('allows the single-operator mode on loopback only', () => {
    expect(loadConfig({ AUTH_V1: 'off', HOST: '127.0.0.1' }).authV1).toBe('off');
    expect(loadConfig({ AUTH_V1: 'off', HOST: '::1' }).authV1).toBe('off');
    expect(isLoopback('localhost')).toBe(true);
    expect(isLoopback('10.0.0.1')).toBe(false);
  });
});

describe('Alpaca configuration', () => {
  it('is off without keys', () => {
    expect(loadConfig({}).alpaca).toBeNull();
  });

  it('reads both keys, the data URL (trailing slash dropped) and the timeout', () => {
    const config = loadConfig({
      ALPACA_KEY_ID: 'AK123',
      ALPACA_SECRET_KEY: 's3cr3t',
      ALPACA_DATA_URL: 'http://127.0.0.1:9999/',
      ALPACA_TIMEOUT_MS: '2500',
    });
    expect(config.alpaca).toEqual({ keyId: 'AK123', secretKey: 's3cr3t', dataUrl: 'http://127.0.0.1:9999', timeoutMs: 2500 });
  });

  it('defaults to the public data API with a 10 s timeout', () => {
    expect(loadConfig({ ALPACA_KEY_ID: 'a', ALPACA_SECRET_KEY: 'b' }).alpaca).toMatchObject({
      dataUrl: 'https://data.alpaca.markets',
      timeoutMs: 10000,
    });
  });

  it.each([
    [{ ALPACA_KEY_ID: 'only-one' }, 'ALPACA_SECRET_KEY'],
    [{ ALPACA_SECRET_KEY: 'only-one' }, 'ALPACA_KEY_ID'],
    [{ ALPACA_KEY_ID: 'a', ALPACA_SECRET_KEY: 'b', ALPACA_DATA_URL: 'ftp://x' }, 'ALPACA_DATA_URL'],
    [{ ALPACA_TIMEOUT_MS: 'soon' }, 'ALPACA_TIMEOUT_MS'],
  ])('refuses %j, naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});

describe('MARKET_DATA_PROVIDER', () => {
  it('is Yahoo without Alpaca keys and Alpaca with them; either can be chosen, or none for an offline install', () => {
    expect(loadConfig({}).marketDataProvider).toBe('yahoo');
    expect(loadConfig({ ALPACA_KEY_ID: 'a', ALPACA_SECRET_KEY: 'b' }).marketDataProvider).toBe('alpaca');
    expect(loadConfig({ ALPACA_KEY_ID: 'a', ALPACA_SECRET_KEY: 'b', MARKET_DATA_PROVIDER: 'yahoo' }).marketDataProvider).toBe('yahoo');
    expect(loadConfig({ MARKET_DATA_PROVIDER: 'NONE' }).marketDataProvider).toBe('none');
  });

  it('drops Alpaca keys another choice leaves unused, so nothing offers its real-time feed', () => {
    for (const provider of ['yahoo', 'none']) {
      expect(loadConfig({ ALPACA_KEY_ID: 'a', ALPACA_SECRET_KEY: 'b', MARKET_DATA_PROVIDER: provider }).alpaca).toBeNull();
    }
  });

  it("sends Yahoo's requests to Yahoo's own host with a 10 s timeout unless told otherwise", () => {
    expect(loadConfig({}).yahoo).toEqual({ baseUrl: 'https://query2.finance.yahoo.com', timeoutMs: 10000 });
    expect(loadConfig({ YAHOO_BASE_URL: 'http://127.0.0.1:9999/', YAHOO_TIMEOUT_MS: '2500' }).yahoo).toEqual({ baseUrl: 'http://127.0.0.1:9999', timeoutMs: 2500 });
  });

  it.each([
    [{ MARKET_DATA_PROVIDER: 'google' }, 'MARKET_DATA_PROVIDER must be one of yahoo, alpaca, none'],
    [{ MARKET_DATA_PROVIDER: 'alpaca' }, 'MARKET_DATA_PROVIDER=alpaca needs ALPACA_KEY_ID'],
    [{ YAHOO_BASE_URL: 'ftp://x' }, 'YAHOO_BASE_URL'],
    [{ YAHOO_TIMEOUT_MS: 'soon' }, 'YAHOO_TIMEOUT_MS'],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('LEGACY_BACKTEST_RATE_LIMIT', () => {
  it('defaults to 120 per minute and reads a whole number', () => {
    expect(loadConfig({}).legacyBacktestRateLimit).toBe(120);
    expect(loadConfig({ LEGACY_BACKTEST_RATE_LIMIT: '5000' }).legacyBacktestRateLimit).toBe(5000);
    expect(() => loadConfig({ LEGACY_BACKTEST_RATE_LIMIT: '0' })).toThrow('LEGACY_BACKTEST_RATE_LIMIT');
  });
});

describe('OPTIONS_RISK_FREE_RATE', () => {
  it('defaults to 0 and reads a decimal fraction; a percentage or a word is refused', () => {
    expect(loadConfig({}).optionsRiskFreeRate).toBe(0);
    expect(loadConfig({ OPTIONS_RISK_FREE_RATE: '0.045' }).optionsRiskFreeRate).toBe(0.045);
    expect(loadConfig({ OPTIONS_RISK_FREE_RATE: '-0.005' }).optionsRiskFreeRate).toBe(-0.005);
    for (const bad of ['4.5', 'high', '1e-2', '.04']) expect(() => loadConfig({ OPTIONS_RISK_FREE_RATE: bad })).toThrow('OPTIONS_RISK_FREE_RATE');
  });
});

describe('SWEEP_RATE_LIMIT', () => {
  it('defaults to 20 per minute and reads a whole number', () => {
    expect(loadConfig({}).sweepRateLimit).toBe(20);
    expect(loadConfig({ SWEEP_RATE_LIMIT: '300' }).sweepRateLimit).toBe(300);
    expect(() => loadConfig({ SWEEP_RATE_LIMIT: 'many' })).toThrow('SWEEP_RATE_LIMIT');
  });
});

describe('connection timeouts', () => {
  it('cut a slow client off after 10 s for headers, 30 s for the request, 60 s of silence; 72 s keep-alive; 10 s to shut down', () => {
    const config = loadConfig({});
    expect(config.timeouts).toEqual({ headersMs: 10_000, requestMs: 30_000, idleMs: 60_000, keepAliveMs: 72_000 });
    expect(config.shutdownTimeoutMs).toBe(10_000);
  });

  it('are read from the environment, headers within the request', () => {
    const config = loadConfig({ HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '2000', IDLE_TIMEOUT_MS: '3000', KEEP_ALIVE_TIMEOUT_MS: '4000', SHUTDOWN_TIMEOUT_MS: '250' });
    expect(config.timeouts).toEqual({ headersMs: 500, requestMs: 2000, idleMs: 3000, keepAliveMs: 4000 });
    expect(config.shutdownTimeoutMs).toBe(250);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' })).toThrow('must not exceed REQUEST_TIMEOUT_MS');
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow('REQUEST_TIMEOUT_MS must be a whole number from 100');
  });
});
