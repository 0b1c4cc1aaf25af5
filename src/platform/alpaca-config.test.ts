import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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

describe('LEGACY_BACKTEST_RATE_LIMIT', () => {
  it('defaults to 120 per minute and reads a whole number', () => {
    expect(loadConfig({}).legacyBacktestRateLimit).toBe(120);
    expect(loadConfig({ LEGACY_BACKTEST_RATE_LIMIT: '5000' }).legacyBacktestRateLimit).toBe(5000);
    expect(() => loadConfig({ LEGACY_BACKTEST_RATE_LIMIT: '0' })).toThrow('LEGACY_BACKTEST_RATE_LIMIT');
  });
});
