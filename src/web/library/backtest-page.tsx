import { useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { formatPercent } from '../ui/format';
import { DataClipNotice } from '../lab/data-clip-notice';
import { SymbolsStatus } from '../lab/symbol-field';
import { DEFAULT_MARKET_INPUTS } from '../lab/market-inputs';
import { ResultsSection, RunActions } from '../lab/run-section';
import { Link, useLocation } from '../router';
import { Notice, TextField, TickerField, formInputs } from '../ui/form';
import { PeriodFields } from '../ui/period-fields';
import { useFocusFirstInvalid } from '../ui/use-focus-first-invalid';
import { checkLibraryExecution, DEFAULT_LIBRARY_EXECUTION, libraryExecutionRequest, type LibraryExecutionInputs } from './backtest-execution';
import { LibraryExecutionFields } from './backtest-execution-fields';
import { placeApiError } from './errors';
import { decimalOf } from './decimal-text';
import { LibraryResults, type ReportedLibraryBacktest } from './library-results';
import { LoadStrategy } from './load-strategy';
import { SignedInPage } from './signed-in-page';
import { isOptionsType, normaliseSymbols, strategyTypeLabel } from './strategy-labels';
import type { LibraryBacktestRequest, StrategyView } from './types';
import { useRequest } from './use-request';

interface BacktestInputs {
  readonly symbols: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly starting_capital: string;
}

/** `options_spec` and `volatility_symbol` are the strategy's: said with a link to its form, where they are set. */
const CONTROLS = new Set(['symbols', 'start_date', 'end_date', 'starting_capital', 'period', 'options_spec', 'volatility_symbol', 'benchmark']);
/** Refusals that name no field but concern one control (docs/backtesting.md, "Library backtest" and "Options backtests"). */
const CONTROL_OF_CODE = { symbol_not_allowed: 'symbols', one_underlying: 'symbols', no_bars: 'period', invalid_period: 'end_date', options_spec_required: 'options_spec' };
const place = (error: unknown) => placeApiError(error, CONTROLS, CONTROL_OF_CODE);

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function checkBacktestInputs(inputs: BacktestInputs): Record<string, string> {
  const errors: Record<string, string> = {};
  if (normaliseSymbols(inputs.symbols).length === 0) errors.symbols = 'Enter at least one ticker, such as SPX.';
  if (!DAY.test(inputs.start_date)) errors.start_date = 'Enter the first day of the period.';
  if (!DAY.test(inputs.end_date)) errors.end_date = 'Enter the last day of the period.';
  else if (DAY.test(inputs.start_date) && inputs.end_date < inputs.start_date) errors.end_date = 'The end date must be on or after the start date.';
  const capital = decimalOf(inputs.starting_capital);
  if (inputs.starting_capital.trim() === '' || !Number.isFinite(capital) || capital <= 0) errors.starting_capital = 'Enter a starting amount above $0.';
  return errors;
}

/** `/library/backtest?id=N`: replay one library strategy over daily bars and show what came of it. */
export function LibraryBacktestPage() {
  const id = useLocation().query.get('id') ?? '';
  return (
    <SignedInPage title="Backtest a strategy" signedOut="to backtest your strategies." class="lab">
      {() => <LoadStrategy key={id} id={id} render={(strategy) => <BacktestForm key={strategy.id} strategy={strategy} />} />}
    </SignedInPage>
  );
}

function BacktestForm(props: { strategy: StrategyView }) {
  const { strategy } = props;
  const [inputs, setInputs] = useState<BacktestInputs>({
    // The allowlist is what the strategy may trade; without one, the demo data's symbol.
    symbols: normaliseSymbols(strategy.entry_symbol_allowlist ?? '').join(', ') || DEFAULT_MARKET_INPUTS.symbol,
    start_date: DEFAULT_MARKET_INPUTS.start_date,
    end_date: DEFAULT_MARKET_INPUTS.end_date,
    starting_capital: DEFAULT_MARKET_INPUTS.initial_capital,
  });
  const [execution, setExecution] = useState<LibraryExecutionInputs>(DEFAULT_LIBRARY_EXECUTION);
  const run = useRequest<ReportedLibraryBacktest>(place);
  /** The request whose answer is on screen: its period is compared with the bars it used. */
  const [asked, setAsked] = useState<LibraryBacktestRequest | undefined>(undefined);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, run.errors);
  const set = (key: keyof BacktestInputs, value: string) => setInputs((current) => ({ ...current, [key]: value }));
  const errors = run.errors.fields;
  const { text } = formInputs(inputs, errors, set);

  async function submit(event: Event) {
    event.preventDefault();
    if (run.running) return;
    const found = { ...checkBacktestInputs(inputs), ...checkLibraryExecution(strategy.strategy_type, execution) };
    if (Object.keys(found).length > 0) return run.refuse({ fields: found });
    const body: LibraryBacktestRequest & { report: true } = {
      strategy_id: strategy.id,
      symbols: normaliseSymbols(inputs.symbols),
      start_date: inputs.start_date,
      end_date: inputs.end_date,
      starting_capital: decimalOf(inputs.starting_capital),
      ...libraryExecutionRequest(strategy.strategy_type, execution),
      // The Report tab shows it (DESIGN "The backtest report and Monte Carlo").
      report: true,
    };
    await run.start(async () => {
      const answer = await api.post<ReportedLibraryBacktest>('/api/backtest/run', body);
      setAsked(body);
      return answer;
    });
  }

  return (
    <>
      <p class="muted">
        <strong>{strategy.name}</strong> ({strategyTypeLabel(strategy.strategy_type)}). <Link href={`/library/edit?id=${strategy.id}`}>Edit its rules</Link> ·{' '}
        <Link href="/library">Back to your library</Link>
      </p>
      {isOptionsType(strategy.strategy_type) && (
        <p class="muted">
          The legs are priced by a model (Black–Scholes on the underlying's close), not by market quotes: no option prices are stored. The results say which volatility and
          spread the model used.
        </p>
      )}
      <form ref={form} class="lab-form" noValidate onSubmit={submit} aria-describedby={run.errors.form ? 'library-backtest-error' : undefined}>
        <div class="form-grid wide">
          {/* One cell of the grid: the tickers, and under them what the server has of each. */}
          <div>
            <TickerField
              label="Symbols"
              name="symbols"
              hint={
                isOptionsType(strategy.strategy_type)
                  ? "The underlying the options are on, such as SPX; it must be in the strategy's allowed symbols."
                  : "Tickers separated by commas; each must be in the strategy's allowed symbols."
              }
              value={inputs.symbols}
              error={errors.symbols}
              onValue={(typed) => set('symbols', typed)}
            />
            <SymbolsStatus id="library-symbols-status" symbols={normaliseSymbols(inputs.symbols)} />
          </div>
          <PeriodFields value={inputs} errors={errors} errorId="library-period-error" onChange={set} />
          <TextField label="Starting capital ($)" inputMode="decimal" required {...text('starting_capital')} />
        </div>
        <LibraryExecutionFields type={strategy.strategy_type} value={execution} errors={errors} onChange={setExecution} />
        {errors.options_spec && (
          <Notice kind="error">
            {errors.options_spec} <Link href={`/library/edit?id=${strategy.id}`}>Edit the strategy to give its options spec</Link>.
          </Notice>
        )}
        {errors.volatility_symbol && (
          <Notice kind="error">
            {errors.volatility_symbol} <Link href={`/library/edit?id=${strategy.id}`}>Edit the strategy's volatility symbol</Link>.
          </Notice>
        )}
        <RunActions id="library-backtest-error" formError={run.errors.form} running={run.running} disabled={false} idle="Run backtest" busy="Running…" progress="Running backtest" />
      </form>
      <ResultsSection
        id="library-results-heading"
        running={run.running}
        status={run.running ? 'Running backtest…' : run.result ? `Backtest finished: total return ${formatPercent(run.result.stats.total_return)}.` : ''}
        empty="Press “Run backtest” to replay the strategy's rules over the period."
      >
        {run.result && (
          <>
            {asked && (
              <DataClipNotice
                asked={{ from: asked.start_date ?? run.result.start_date, to: asked.end_date ?? run.result.end_date }}
                used={{ from: run.result.start_date, to: run.result.end_date }}
                symbols={run.result.symbols}
              />
            )}
            <LibraryResults result={run.result} strategy={strategy} />
          </>
        )}
      </ResultsSection>
    </>
  );
}
