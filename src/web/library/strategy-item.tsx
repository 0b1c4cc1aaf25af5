import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, describeError } from '../api';
import { useSession } from '../auth/session';
import { formatMoney, formatPercent } from '../ui/format';
import { Link } from '../router';
import { ConfirmDelete, deleteItem } from '../ui/confirm-delete';
import { Notice } from '../ui/form';
import { isSignedOut } from './errors';
import { SIDE_CHOICES, strategyTypeLabel } from './strategy-labels';
import { specSummary } from './options-words';
import type { StrategyView } from './types';

/** The rules in one line: "SPX · at most $5,000 · buy only · target +20.00% · stop −10.00% · entry rule". */
export function ruleSummary(strategy: StrategyView): string {
  const parts: string[] = [];
  parts.push(strategy.entry_symbol_allowlist ? strategy.entry_symbol_allowlist.split(',').join(', ') : 'any symbol');
  if (strategy.entry_max_position_size !== null) parts.push(`at most ${formatMoney(strategy.entry_max_position_size)} a trade`);
  if (strategy.entry_allowed_sides) parts.push(SIDE_CHOICES.find((choice) => choice.value === strategy.entry_allowed_sides)!.label.toLowerCase());
  if (strategy.options_spec) parts.push(specSummary(strategy.options_spec, strategy.volatility_symbol));
  if (strategy.exit_profit_target_pct !== null) parts.push(`target +${formatPercent(strategy.exit_profit_target_pct)}`);
  if (strategy.exit_stop_loss_pct !== null) parts.push(`stop ${formatPercent(strategy.exit_stop_loss_pct)}`);
  if (strategy.exit_trailing_stop_pct !== null) parts.push(`trailing stop ${formatPercent(strategy.exit_trailing_stop_pct)}`);
  if (strategy.entry_rule) parts.push('entry rule');
  if (strategy.exit_rule) parts.push('exit rule');
  return parts.join(' · ');
}

/**
 * One strategy in the list: its name, type and rules, an Active switch (saved at once), links to edit,
 * backtest, check a trade and trade it (the Trade page with the strategy picked), and Delete after a confirmation. Each link and button names the strategy for
 * screen readers (visually hidden text), since every item has the same ones.
 */
export function StrategyItem(props: { strategy: StrategyView; onDeleted: (name: string) => void }) {
  const { reload } = useSession();
  const [strategy, setStrategy] = useState(props.strategy);
  useEffect(() => setStrategy(props.strategy), [props.strategy]);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  // "Keep it" hands focus back to the Delete button that opened the question.
  useEffect(() => {
    if (!confirming && wasConfirming.current) deleteButton.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  const { id, name } = strategy;
  const named = <span class="visually-hidden"> {name}</span>;

  const refused = (error: unknown, what: string) => {
    if (isSignedOut(error)) return void reload();
    if (error instanceof ApiError && error.status === 404) setProblem(`“${name}” is no longer in your library (deleted elsewhere?). Reload the page.`);
    else setProblem(`${what}: ${describeError(error)}`);
  };

  const toggle = async (active: boolean) => {
    setProblem(undefined);
    setBusy(true);
    try {
      setStrategy(await api.patch<StrategyView>(`/api/strategies/${id}`, { is_active: active }));
    } catch (error) {
      refused(error, active ? 'It could not be switched on' : 'It could not be switched off');
    } finally {
      setBusy(false);
    }
  };

  const remove = () =>
    deleteItem(() => api.delete(`/api/strategies/${id}`), {
      setBusy,
      setProblem,
      deleted: () => props.onDeleted(name),
      refused: (error) => refused(error, 'It could not be deleted'),
    });

  return (
    <li class="strategy" aria-label={name}>
      <div class="strategy__head">
        <strong class="strategy__name">{name}</strong>
        <span class="badge badge--plain">{strategyTypeLabel(strategy.strategy_type)}</span>
        <label class="switch">
          <input type="checkbox" role="switch" checked={strategy.is_active} disabled={busy} onChange={(event) => toggle(event.currentTarget.checked)} />
          <span>Active</span>
        </label>
      </div>
      {strategy.description && <p class="strategy__description">{strategy.description}</p>}
      <p class="strategy__rules muted">{ruleSummary(strategy)}</p>
      {problem && <Notice kind="error">{problem}</Notice>}
      {confirming ? (
        <ConfirmDelete class="strategy__confirm" name={name} deleteLabel="Delete strategy" busy={busy} onDelete={remove} onKeep={() => setConfirming(false)}>
          <strong>Delete “{name}”?</strong> This cannot be undone.
        </ConfirmDelete>
      ) : (
        <div class="strategy__actions">
          <Link href={`/library/edit?id=${id}`}>Edit{named}</Link>
          <Link href={`/library/backtest?id=${id}`}>Backtest{named}</Link>
          <Link href={`/compliance?id=${id}`}>Check a trade{named}</Link>
          <Link href={`/trade?strategy=${id}`}>Trade this strategy{named}</Link>
          <button ref={deleteButton} type="button" class="link-button link-button--danger" onClick={() => setConfirming(true)}>
            Delete{named}
          </button>
        </div>
      )}
    </li>
  );
}
