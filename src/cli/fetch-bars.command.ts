import type { Command } from 'commander';
import { systemClock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { fetchBarsInto, SOURCE_NAMES, type FetchBarsOutcome } from '../market/fetch-bars.js';
import { marketDataProviderFor } from '../market/market-data-provider.js';
import { isIsoDate } from '../market/market-terms.js';
import { fillRestingOrders } from '../trading/resting-orders.service.js';
import { withMigratedDatabase } from './with-database.js';

/**
 * `tradelab fetch-bars SYMBOL... [--from DATE]`: fills the store from the configured provider, for operators who want
 * data before users ask. One line per symbol; a symbol that failed is said on stderr and the others go on; exit 1 when
 * any failed, or when there is no provider (`MARKET_DATA_PROVIDER=none`) or `--from` is not a date.
 */
export function addFetchBarsCommand(program: Command, config: () => Config): void {
  program
    .command('fetch-bars')
    .description('fetch daily bars from the configured market-data provider (Yahoo Finance by default, Alpaca with keys) into the store')
    .argument('<symbols...>', 'tickers, such as AAPL MSFT')
    .option('--from <date>', 'fetch from this date, YYYY-MM-DD (default: after the last stored bar, or all the provider has since 1990)')
    .action(async (symbols: string[], options: { from?: string }) => {
      const settings = config();
      if (options.from !== undefined && !isIsoDate(options.from)) return refuse(`--from "${options.from}" is not a date: write it YYYY-MM-DD, such as 2020-01-02.`);
      const logger = createLogger({ logLevel: settings.logLevel });
      const provider = marketDataProviderFor(settings, { clock: systemClock, logger });
      if (provider === null) {
        return refuse(
          'fetch-bars needs a market-data provider, and MARKET_DATA_PROVIDER is none (offline). Set MARKET_DATA_PROVIDER=yahoo (no key needed) or alpaca (with ALPACA_KEY_ID and ALPACA_SECRET_KEY); offline, import CSV files with `tradelab import-bars`.',
        );
      }
      await withMigratedDatabase(settings, async (db, _applied, dialect) => {
        const outcomes = await fetchBarsInto(db, systemClock, provider, {
          symbols: [...new Set(symbols)],
          from: options.from,
          // New bars may fill resting limit orders on the symbol.
          onBarsStored: async (symbol) => void (await fillRestingOrders({ db, dialect, clock: systemClock }, symbol)),
        });
        for (const outcome of outcomes) report(outcome);
        const failed = outcomes.filter((outcome) => !outcome.ok).length;
        if (failed > 0) {
          console.error(`${failed} of ${outcomes.length} symbol${outcomes.length === 1 ? '' : 's'} not fetched.`);
          process.exitCode = 1;
        }
      });
    });
}

function report(outcome: FetchBarsOutcome): void {
  if (!outcome.ok) {
    console.error(`${outcome.symbol}: not fetched (${outcome.error}): ${outcome.message}`);
    return;
  }
  const fresh = outcome.changed === 0 ? 'already up to date' : `${outcome.changed} new or changed`;
  console.log(`${outcome.symbol}: ${outcome.bars} bars stored, ${outcome.from} to ${outcome.to}, from ${SOURCE_NAMES[outcome.source]} (${fresh})`);
}

function refuse(message: string): void {
  console.error(message);
  process.exitCode = 1;
}
