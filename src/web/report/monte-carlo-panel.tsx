import { useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { RunActions } from '../lab/run-section';
import { formatCount, formatMoney, formatPercent } from '../ui/format';
import { TextField, formInputs } from '../ui/form';
import { useFocusFirstInvalid } from '../ui/use-focus-first-invalid';
import { useOneRequest } from '../ui/use-one-request';
import { FanChart } from './fan-chart';
import { checkMonteCarloInputs, DEFAULT_MONTE_CARLO_INPUTS, monteCarloErrors, monteCarloRequest, type MonteCarloInputs } from './monte-carlo-inputs';
import type { MonteCarloMethod, MonteCarloResult, Percentiles } from './report-types';
import { fanSentence, lossSentence, METHOD_WORDS, MONTE_CARLO_QUESTION } from './report-words';

const PERCENTILES: readonly (keyof Percentiles)[] = ['p5', 'p25', 'p50', 'p75', 'p95'];
const PERCENTILE_NAMES: Readonly<Record<keyof Percentiles, string>> = { p5: '5th', p25: '25th', p50: 'Median', p75: '75th', p95: '95th' };

/**
 * Monte Carlo robustness of one lab backtest (`POST /api/backtest/monte-carlo` with the backtest's own request):
 * runs, seed and method, then the fan chart with the actual path, the percentiles of final equity and max drawdown,
 * and the probability of a loss in words.
 */
export function MonteCarloPanel(props: { request: Readonly<Record<string, unknown>> }) {
  const [inputs, setInputs] = useState<MonteCarloInputs>(DEFAULT_MONTE_CARLO_INPUTS);
  const run = useOneRequest<MonteCarloResult>({ keepResultOnRefusal: false });
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, run.errors);
  const set = <K extends keyof MonteCarloInputs>(key: K, value: MonteCarloInputs[K]) => {
    setInputs((current) => ({ ...current, [key]: value }));
    run.dismiss([key]);
  };
  const { text } = formInputs(inputs, run.errors.fields, set);

  async function submit(event: Event) {
    event.preventDefault();
    const found = checkMonteCarloInputs(inputs);
    if (Object.keys(found).length > 0) return run.refuse({ fields: found });
    const body = monteCarloRequest(props.request, inputs);
    await run.start(() => api.post<MonteCarloResult>('/api/backtest/monte-carlo', body), monteCarloErrors);
  }

  const result = run.result;
  return (
    <div class={result ? 'monte-carlo monte-carlo--done' : 'monte-carlo'}>
      <p>{MONTE_CARLO_QUESTION}</p>
      <form ref={form} class="lab-form monte-carlo__form" noValidate onSubmit={submit} aria-describedby={run.errors.form ? 'monte-carlo-error' : undefined}>
        <div class="form-grid">
          <TextField label="Runs" inputMode="numeric" hint="How many resampled runs: 1 to 10,000." {...text('runs')} />
          <TextField label="Seed" inputMode="numeric" hint="The same seed gives the same answer." {...text('seed')} />
        </div>
        <fieldset class="monte-carlo__method">
          <legend>Method</legend>
          {(Object.keys(METHOD_WORDS) as MonteCarloMethod[]).map((method) => (
            <div class="choice" key={method}>
              <input
                type="radio"
                id={`monte-carlo-${method}`}
                name="method"
                value={method}
                checked={inputs.method === method}
                aria-describedby={`monte-carlo-${method}-hint`}
                onChange={() => set('method', method)}
              />
              <label for={`monte-carlo-${method}`}>{METHOD_WORDS[method].label}</label>
              <p class="field__hint" id={`monte-carlo-${method}-hint`}>
                {METHOD_WORDS[method].explanation}
              </p>
            </div>
          ))}
        </fieldset>
        <RunActions id="monte-carlo-error" formError={run.errors.form} running={run.running} disabled={false} idle="Run Monte Carlo" busy="Running…" progress="Running Monte Carlo" />
      </form>
      <div role="status" class="visually-hidden">
        {run.running ? 'Running Monte Carlo…' : result ? `Monte Carlo finished: ${lossSentence(result.probability_of_loss, result.runs)}` : ''}
      </div>
      {result && <MonteCarloOutcome result={result} />}
    </div>
  );
}

function MonteCarloOutcome(props: { result: MonteCarloResult }) {
  const { result } = props;
  const actual = result.bands.actual;
  return (
    <section class="monte-carlo__outcome" aria-labelledby="monte-carlo-outcome">
      <h3 id="monte-carlo-outcome">
        {formatCount(result.runs)} {METHOD_WORDS[result.method].label.toLowerCase()} runs of {formatCount(result.trades)} trades (seed {result.seed})
      </h3>
      <p class="monte-carlo__loss">
        <strong>{lossSentence(result.probability_of_loss, result.runs)}</strong>
      </p>
      <FanChart
        bands={result.bands}
        summary={fanSentence(result.final_equity, actual[actual.length - 1] ?? null)}
      />
      <div class="table-scroll" role="region" aria-labelledby="monte-carlo-percentiles-caption" tabIndex={0}>
        <table class="monte-carlo__percentiles">
          <caption id="monte-carlo-percentiles-caption">Percentiles over the resampled runs: 5th is the bad end, 95th the good end of final equity.</caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              {PERCENTILES.map((key) => (
                <th scope="col" class="num" key={key}>
                  {PERCENTILE_NAMES[key]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Final equity</th>
              {PERCENTILES.map((key) => (
                <td class="num" key={key}>
                  {formatMoney(result.final_equity[key])}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">Max drawdown</th>
              {PERCENTILES.map((key) => (
                <td class="num negative" key={key}>
                  {formatPercent(result.max_drawdown[key])}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}
