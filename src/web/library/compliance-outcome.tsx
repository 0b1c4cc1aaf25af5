import type { ComplianceResult } from './types';

/** What each rule id of a violation is about, in the words of the strategy form. */
const RULES: Readonly<Record<string, string>> = {
  strategy_active: 'Strategy active',
  symbol_allowed: 'Allowed symbols',
  side_allowed: 'Allowed sides',
  max_position_size: 'Max position size',
  leg_structure: 'Legs',
  max_dte: 'Max days to expiry',
  min_credit: 'Minimum credit',
};

export type Violation = ComplianceResult['violations'][number];

/** "The trade breaks 2 rules" → each violated rule by its name in the strategy form, its id and the server's message. */
export function ViolationList(props: { violations: readonly Violation[] }) {
  return (
    <ul class="violations" aria-label="Violations">
      {props.violations.map((violation, index) => (
        <li key={`${violation.rule}-${index}`}>
          <strong>{RULES[violation.rule] ?? violation.rule}</strong> <span class="violations__rule">({violation.rule})</span>: {violation.message}
        </li>
      ))}
    </ul>
  );
}

/**
 * A compliance verdict: "Compliant. The trade meets every rule of “X”." or "Not compliant." with each violation.
 * `what` names the thing judged ("trade", "order"); the trade check and the Trade page's ticket both show it.
 */
export function Verdict(props: { result: Pick<ComplianceResult, 'compliant' | 'violations'> & { strategy: { name: string } }; what?: string }) {
  const { result } = props;
  const what = props.what ?? 'trade';
  if (result.compliant) {
    return (
      <p class="verdict verdict--ok">
        <strong>Compliant.</strong> The {what} meets every rule of “{result.strategy.name}”.
      </p>
    );
  }
  return (
    <>
      <p class="verdict verdict--bad">
        <strong>Not compliant.</strong> The {what} breaks {result.violations.length === 1 ? 'one rule' : `${result.violations.length} rules`} of “{result.strategy.name}”:
      </p>
      <ViolationList violations={result.violations} />
    </>
  );
}

/**
 * The check's answer in a live region (present from the start, so its changes are announced): "Compliant", or
 * each violated rule with the server's message.
 */
export function ComplianceOutcome(props: { running: boolean; result: ComplianceResult | undefined }) {
  const { result } = props;
  return (
    <section class="results compliance-outcome" aria-labelledby="compliance-outcome-heading" aria-busy={props.running}>
      <h2 id="compliance-outcome-heading">Result</h2>
      <div aria-live="polite">
        {!result && <p class="muted">{props.running ? 'Checking…' : 'Fill in the trade and press “Check trade”.'}</p>}
        {result && <Verdict result={result} />}
      </div>
    </section>
  );
}
