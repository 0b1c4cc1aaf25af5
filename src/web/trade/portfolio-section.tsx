import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, describeError } from '../api';
import { useFocusOn } from '../auth/focus';
import { useSession } from '../auth/session';
import { isSignedOut } from '../library/errors';
import { ConfirmDelete } from '../ui/confirm-delete';
import { ClosePosition, type CloseOutcome } from './close-position';
import { Notice } from '../ui/form';
import { formatCount, formatMoney, signClass } from '../ui/format';
import { breakevensText, netPriceText, riskAmount, structureExpiry, structureLegs, unrealizedTotal } from './order-words';
import type { Portfolio } from './types';

/**
 * The paper portfolio (`GET /api/trade-window/portfolio`): cash, the part held for resting buys, equity, realized
 * and unrealized P&L, the share positions and the options positions as structures (legs, expiry, the price paid, risk), and a reset (after a question) back to $100,000. Reloaded
 * whenever `version` changes (an order placed, refused or canceled). It also tells the page whether the recovery
 * cooldown holds (`trade_cooldown_until`), so the banner shows from the start.
 */
export function PortfolioSection(props: {
  version: number;
  onReset: () => void;
  onCooldown: (until: string | undefined) => void;
  /** Each portfolio loaded (the ticket's estimate uses the cash available). */
  onLoaded: (portfolio: Portfolio) => void;
}) {
  const { reload } = useSession();
  const [portfolio, setPortfolio] = useState<Portfolio | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | undefined>(undefined);
  const [closing, setClosing] = useState<CloseOutcome | undefined>(undefined);
  const closingRef = useFocusOn<HTMLDivElement>(closing);
  const doneRef = useFocusOn<HTMLDivElement>(done);
  const resetButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  useEffect(() => {
    if (!confirming && wasConfirming.current && !done) resetButton.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  useEffect(() => {
    let current = true;
    api.get<Portfolio>('/api/trade-window/portfolio').then(
      (answer) => {
        if (!current) return;
        setPortfolio(answer);
        props.onLoaded(answer);
        setProblem(undefined);
        props.onCooldown(answer.trade_cooldown_until ?? undefined);
      },
      (error: unknown) => {
        if (!current) return;
        if (isSignedOut(error)) return void reload();
        setProblem(`The portfolio could not be loaded: ${describeError(error)}`);
      },
    );
    return () => void (current = false);
  }, [props.version]);

  const reset = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      setPortfolio(await api.post<Portfolio>('/api/trade-window/portfolio/reset'));
      setClosing(undefined);
      setDone('The portfolio is back to $100,000 in cash. Resting orders were canceled; the order history is kept.');
      setConfirming(false);
      props.onReset();
    } catch (error) {
      if (isSignedOut(error)) return void reload();
      // Refused during the recovery cooldown: the banner above says until when.
      if (error instanceof ApiError && error.code === 'trade_cooldown' && typeof error.body.until === 'string') props.onCooldown(error.body.until);
      setProblem(`The portfolio could not be reset: ${describeError(error)}`);
    } finally {
      setBusy(false);
    }
  };

  const closed = (outcome: CloseOutcome) => {
    setDone(undefined);
    // Its own notice: the reload that follows a stored order clears only the load's problem.
    setClosing(outcome);
    if (outcome.until) props.onCooldown(outcome.until);
    if (outcome.stored) props.onReset();
  };

  const unrealized = portfolio ? unrealizedTotal(portfolio) : null;
  return (
    <section class="trade-portfolio" aria-labelledby="portfolio-heading">
      <h2 id="portfolio-heading">Portfolio</h2>
      {problem && <Notice kind="error">{problem}</Notice>}
      {done && (
        <div ref={doneRef} tabIndex={-1}>
          <Notice kind="success">{done}</Notice>
        </div>
      )}
      {closing && (
        <div ref={closingRef} tabIndex={-1}>
          <Notice kind={closing.kind}>{closing.text}</Notice>
        </div>
      )}
      {!portfolio && !problem && <p class="muted">Loading your portfolio…</p>}
      {portfolio && (
        <>
          <dl class="metric-cards portfolio-figures">
            <Figure label="Equity" value={formatMoney(portfolio.equity)} note="Cash, shares at their latest close, options at cost." />
            <Figure label="Cash" value={formatMoney(portfolio.cash)} note="Everything not invested, held cash included." />
            <Figure label="Held back" value={formatMoney(portfolio.reserved_cash)} note="Quantity × limit of each resting buy, and the most each open option spread can lose (until it closes)." />
            <Figure label="Available to buy" value={formatMoney(Math.round((portfolio.cash - portfolio.reserved_cash) * 100) / 100)} note="Cash less what is held. No margin." />
            <Figure label="Realized P&L" value={formatMoney(portfolio.realized_pnl)} sign={signClass(portfolio.realized_pnl)} note="From closed shares and contracts." />
            <Figure label="Unrealized P&L" value={formatMoney(unrealized)} sign={signClass(unrealized)} note="Open shares at their latest close." />
          </dl>
          <h3 id="positions-heading">Shares</h3>
          {portfolio.positions.length === 0 ? (
            <p class="muted">No shares held.</p>
          ) : (
            <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="positions-heading">
              <table class="positions-table">
                <thead>
                  <tr>
                    <th scope="col">Symbol</th>
                    <th scope="col" class="num">Shares</th>
                    <th scope="col" class="num">Average price</th>
                    <th scope="col" class="num">Latest close</th>
                    <th scope="col" class="num">Market value</th>
                    <th scope="col" class="num">Unrealized P&amp;L</th>
                    <th scope="col">Close</th>
                  </tr>
                </thead>
                <tbody>
                  {portfolio.positions.map((position) => (
                    <tr key={position.symbol}>
                      <th scope="row">{position.symbol}</th>
                      <td class="num">{formatCount(position.qty)}</td>
                      <td class="num">{formatMoney(position.avg_price)}</td>
                      <td class="num">{formatMoney(position.last_close)}</td>
                      <td class="num">{formatMoney(position.market_value)}</td>
                      <td class={`num ${signClass(position.unrealized_pnl)}`}>{formatMoney(position.unrealized_pnl)}</td>
                      <td>
                        <ClosePosition symbol={position.symbol} qty={position.qty} onDone={closed} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3 id="options-positions-heading">Options</h3>
          {portfolio.options_structures.length === 0 ? (
            <p class="muted">No option contracts held.</p>
          ) : (
            <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="options-positions-heading">
              <table class="positions-table structures-table">
                <caption class="visually-hidden">Each open options position as the structure it was traded as, at the net price of the order that opened it.</caption>
                <thead>
                  <tr>
                    <th scope="col">Structure</th>
                    <th scope="col">Expiry</th>
                    <th scope="col" class="num">Units</th>
                    <th scope="col" class="num">Net price a share</th>
                    <th scope="col" class="num">Maximum loss</th>
                    <th scope="col" class="num">Maximum gain</th>
                    <th scope="col" class="num">Breakeven</th>
                  </tr>
                </thead>
                <tbody>
                  {portfolio.options_structures.map((structure) => (
                    <tr key={structure.id}>
                      <th scope="row">{structureLegs(structure)}</th>
                      <td>{structureExpiry(structure)}</td>
                      <td class="num">{formatCount(structure.qty)}</td>
                      <td class="num">{netPriceText(structure.net_price)}</td>
                      <td class="num">{riskAmount(structure.max_loss)}</td>
                      <td class="num">{riskAmount(structure.max_gain)}</td>
                      <td class="num">{breakevensText(structure)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {confirming ? (
            <ConfirmDelete
              class="portfolio__confirm"
              name="portfolio"
              question="Reset the portfolio?"
              deleteLabel="Reset portfolio"
              busy={busy}
              onDelete={reset}
              onKeep={() => setConfirming(false)}
            >
              <strong>Reset the portfolio?</strong> Every position goes and cash returns to $100,000; resting orders are canceled. The order history is kept.
            </ConfirmDelete>
          ) : (
            <div class="actions">
              <button
                ref={resetButton}
                type="button"
                class="danger"
                onClick={() => {
                  setDone(undefined);
                  setConfirming(true);
                }}
              >
                Reset portfolio…
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function Figure(props: { label: string; value: string; note: string; sign?: string }) {
  return (
    <div class="metric-card">
      <dt>{props.label}</dt>
      <dd class={`metric-card__value ${props.sign ?? ''}`}>{props.value}</dd>
      <dd class="metric-card__explanation">{props.note}</dd>
    </div>
  );
}
