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
        {result && result.compliant && (
          <p class="verdict verdict--ok">
            <strong>Compliant.</strong> The trade meets every rule of “{result.strategy.name}”.
          </p>
        )}
        {result && !result.compliant && (
          <>
            <p class="verdict verdict--bad">
              <strong>Not compliant.</strong> The trade breaks {result.violations.length === 1 ? 'one rule' : `${result.violations.length} rules`} of “{result.strategy.name}”:
            </p>
            <ul class="violations" aria-label="Violations">
              {result.violations.map((violation, index) => (
                <li key={`${violation.rule}-${index}`}>
                  <strong>{RULES[violation.rule] ?? violation.rule}</strong> <span class="violations__rule">({violation.rule})</span>: {violation.message}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}
