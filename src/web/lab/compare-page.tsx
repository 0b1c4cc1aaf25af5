import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { Link } from '../router';
import { CompareResults } from './compare-results';
import { LabFormPage, useLabForm } from './lab-form-page';
import { checkExecutionInputs, executionRequest } from './execution-inputs';
import { checkMarketInputs, marketRequest } from './market-inputs';
import { TemplateChecklist } from './template-checklist';
import type { ComparisonResult } from './types';

/** Several templates with their default parameters over one symbol and period, side by side. */
export function ComparePage() {
  const lab = useLabForm<ComparisonResult>();
  const { templates, market, execution, run } = lab;
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    if (templates) setChosen(new Set(templates.map((template) => template.id)));
  }, [templates]);

  // Any new choice settles the "choose at least one" error, ticked or by "Select all".
  const choose = (next: ReadonlySet<string>) => {
    setChosen(next);
    run.dismiss(['strategies']);
  };
  async function submit(event: Event) {
    event.preventDefault();
    if (!templates || run.running) return;
    const found = { ...checkMarketInputs(market), ...checkExecutionInputs(execution) };
    if (chosen.size === 0) found.strategies = 'Choose at least one template.';
    if (Object.keys(found).length > 0) return run.refuse({ fields: found });
    // In catalogue order, whatever order they were ticked in, so colours stay put between runs.
    const strategies = templates.filter((template) => chosen.has(template.id)).map((template) => template.id);
    await run.start(lab.asking(market, () => api.post<ComparisonResult>('/api/compare-strategies', { ...marketRequest(market), strategies, ...executionRequest(execution, market.symbol) })));
  }

  return (
    <LabFormPage
      id="compare"
      title="Compare strategies"
      intro={
        <>
          Run several templates, each with its default parameters, over the same bars. To tune one template's parameters, use the{' '}
          <Link href="/">backtest lab</Link>.
        </>
      }
      lab={lab}
      onSubmit={submit}
      templateFields={templates && <TemplateChecklist templates={templates} chosen={chosen} error={run.errors.fields.strategies} onChange={choose} />}
      disabled={!templates}
      submit={{ idle: 'Compare', busy: 'Comparing…', progress: 'Running comparison' }}
      status={run.running ? 'Running comparison…' : run.result ? `Comparison finished: ${run.result.strategies.length} templates.` : ''}
      empty="Choose templates and press “Compare”."
      results={run.result && <CompareResults result={run.result} />}
      used={run.result}
    />
  );
}
