import type { Command } from 'commander';
import { systemClock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import { AppError } from '../platform/errors.js';
import { CsvBarsError } from '../market/csv-bars.js';
import { importBarsFile } from '../market/import-bars.js';
import { fillRestingOrders } from '../trading/resting-orders.service.js';
import { exitOneOnRefusal } from './exits.js';
import { withMigratedDatabase } from './with-database.js';

/** `tradelab import-bars FILE --symbol SYM [--name NAME]`: a bad row or symbol exits 1 with `FILE:LINE: reason`. */
export function addImportBarsCommand(program: Command, config: () => Config): void {
  program
    .command('import-bars')
    .description('import daily bars from a Yahoo-style CSV (Date,Open,High,Low,Close,Adj Close,Volume); re-importing changes nothing; into a symbol the demo or a provider filled, the file replaces its bars')
    .argument('<file>', 'CSV file')
    .requiredOption('--symbol <symbol>', 'ticker to store the bars under, such as AAPL')
    .option('--name <name>', 'display name, such as "Apple Inc." (default: the ticker, or the name already stored)')
    .action(async (file: string, options: { symbol: string; name?: string }) =>
      withMigratedDatabase(config(), (db, _applied, dialect) =>
        exitOneOnRefusal([CsvBarsError, AppError], async () => {
          let filled = 0;
          const summary = await importBarsFile(db, systemClock, {
            file,
            symbol: options.symbol,
            name: options.name,
            // New bars may fill resting limit orders on the symbol.
            onBarsStored: async (symbol) => void (filled = await fillRestingOrders({ db, dialect, clock: systemClock }, symbol)),
          });
          const skipped = summary.skippedNullRows > 0 ? `, ${summary.skippedNullRows} null rows skipped` : '';
          const adjusted = summary.adjusted ? ', adjusted by Adj Close' : '';
          const replaced = summary.replaced ? `, replacing the bars from ${summary.replaced}` : '';
          console.log(`${summary.symbol}: ${summary.bars} bars ${summary.from} to ${summary.to}, ${summary.changed} new or changed${skipped}${adjusted}${replaced}`);
          if (filled > 0) console.log(`${filled} resting limit order${filled === 1 ? '' : 's'} filled on the new bars`);
        }),
      ),
    );
}
