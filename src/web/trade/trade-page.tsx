import { useEffect, useState } from 'preact/hooks';
import { useSession } from '../auth/session';
import { Link, useLocation } from '../router';
import { Notice } from '../ui/form';
import { isSignedOut, placeApiError } from '../library/errors';
import { legsFor } from '../library/legs-editor';
import { SignedInPage } from '../library/signed-in-page';
import { loadStrategyChoices, type StrategyChoice } from '../library/strategy-choices';
import { isOptionsType } from '../library/strategy-labels';
import { CooldownBanner } from './cooldown-banner';
import { OrderHistory } from './order-history';
import { OrderTicket } from './order-ticket';
import { PortfolioSection } from './portfolio-section';
import { BLANK_TICKET, type TicketInputs } from './ticket-inputs';

/** `/trade`, `/trade?strategy=N`: paper trading — the order ticket, the portfolio and the order history. */
export function TradePage() {
  return (
    <SignedInPage title="Trade" class="trade" signedOut="to paper trade.">
      {() => <TradeDesk />}
    </SignedInPage>
  );
}

function TradeDesk() {
  const { reload } = useSession();
  const wanted = useLocation().query.get('strategy') ?? '';
  const [choices, setChoices] = useState<readonly StrategyChoice[] | undefined>(undefined);
  const [loadProblem, setLoadProblem] = useState<string | undefined>(undefined);
  const [missing, setMissing] = useState<string | undefined>(undefined);
  const [inputs, setInputs] = useState<TicketInputs>(BLANK_TICKET);
  const [cooldownUntil, setCooldownUntil] = useState<string | undefined>(undefined);
  /** Cash not held back, from the latest portfolio: the ticket's estimate. */
  const [available, setAvailable] = useState<number | null>(null);
  /** Bumped after anything that changes orders or the portfolio: both reload. */
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((value) => value + 1);

  useEffect(() => {
    let current = true;
    loadStrategyChoices(wanted).then(
      ({ list, missing }) => {
        if (!current) return;
        setChoices(list);
        setMissing(missing);
        const picked = list.find((choice) => String(choice.id) === wanted);
        const options = picked !== undefined && isOptionsType(picked.strategy_type);
        setInputs((ticket) => ({
          ...ticket,
          strategy_id: picked ? String(picked.id) : '',
          kind: options ? 'options' : 'equity',
          legs: options ? legsFor(picked.strategy_type) : ticket.legs,
        }));
      },
      (error: unknown) => {
        if (!current) return;
        if (isSignedOut(error)) return void reload();
        setLoadProblem(`Your strategies could not be loaded: ${placeApiError(error, new Set()).form}`);
      },
    );
    return () => void (current = false);
  }, [wanted]);

  return (
    <>
      <p class="muted">
        Paper trading: orders fill at the market data’s delayed price, or the latest stored close, with play money (a cash account, $100,000 to start), never at a broker. Pick a strategy to have
        each order checked against its rules; build strategies in your <Link href="/library">library</Link>.
      </p>
      <CooldownBanner until={cooldownUntil} />
      {loadProblem && <Notice kind="error">{loadProblem}</Notice>}
      {missing && <Notice kind="error">{`${missing} The ticket starts without a strategy.`}</Notice>}
      {!choices && !loadProblem && <p class="muted">Loading your strategies…</p>}
      {choices && <OrderTicket choices={choices} inputs={inputs} onInputs={setInputs} onOrdersChanged={changed} onCooldown={setCooldownUntil} available={available} />}
      <PortfolioSection
        version={version}
        onReset={changed}
        onCooldown={setCooldownUntil}
        onLoaded={(portfolio) => setAvailable(Math.round((portfolio.cash - portfolio.reserved_cash) * 100) / 100)}
      />
      <OrderHistory version={version} choices={choices ?? []} onCanceled={changed} />
    </>
  );
}
