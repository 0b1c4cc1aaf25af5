import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { ruleProblem } from '../../strategies/grammar/index';

/** How long typing must pause before a screen reader hears the rule's state (not at every keystroke). */
const ANNOUNCE_AFTER_MS = 800;

/** The line of `source` holding 1-based `column` (columns count the whole text), and where in it the column is. */
export function lineAt(source: string, column: number): { text: string; offset: number } {
  const index = Math.max(0, Math.min(column - 1, source.length));
  const start = source.lastIndexOf('\n', index - 1) + 1;
  const newline = source.indexOf('\n', index);
  const end = newline < 0 ? source.length : newline;
  // Tabs as single spaces, so the caret under the text lines up.
  return { text: source.slice(start, end).replace(/\t/g, ' '), offset: index - start };
}

/** The column a grammar message starts with ("column 17: …"), if any. */
export function columnOf(message: string): number | undefined {
  const found = /^column (\d+)\b/.exec(message);
  return found ? Number(found[1]) : undefined;
}

/**
 * A rule of the grammar (src/strategies/grammar), checked as it is typed by the same code the server runs.
 * A problem shows its message ("column 17: unknown function …") and, under a copy of the line, a caret at the
 * column. `error` is a refusal from the last save (the server's or the form's), shown until the text changes.
 */
export function RuleEditor(props: { name: string; label: string; hint: string; value: string; error: string | undefined; onInput: (value: string) => void }) {
  const id = useId();
  const { value } = props;
  const live = useMemo(() => (value.trim() === '' ? null : ruleProblem(value)), [value]);
  const message = live?.message ?? props.error;
  const column = live?.column ?? (message ? columnOf(message) : undefined);
  const [announced, setAnnounced] = useState('');
  // Nothing to announce for the text the page opened with: only what the person types is news.
  const typed = useRef(false);
  useEffect(() => {
    if (!typed.current) return;
    const timer = setTimeout(() => setAnnounced(live ? `${props.label}: ${live.message}` : value.trim() ? `${props.label} is valid.` : ''), ANNOUNCE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [live?.message, value.trim() === '']);
  const at = message && column !== undefined ? lineAt(value, column) : undefined;
  const describedBy = [`${id}-hint`, message ? `${id}-error` : `${id}-state`].join(' ');
  return (
    <div class={message ? 'field rule-editor field--invalid' : 'field rule-editor'}>
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        name={props.name}
        class="rule-editor__input"
        rows={2}
        spellcheck={false}
        autoComplete="off"
        autoCapitalize="off"
        aria-invalid={Boolean(message)}
        aria-describedby={describedBy}
        value={value}
        onInput={(event) => {
          typed.current = true;
          props.onInput(event.currentTarget.value);
        }}
      />
      <p class="field__hint" id={`${id}-hint`}>
        {props.hint}
      </p>
      {at && (
        <pre class="rule-editor__caret" aria-hidden="true">
          {at.text}
          {'\n'}
          {' '.repeat(at.offset)}^
        </pre>
      )}
      {message ? (
        <p class="field__error" id={`${id}-error`}>
          {message}
        </p>
      ) : (
        <p class="rule-editor__state" id={`${id}-state`}>
          {value.trim() ? '✓ Valid rule.' : ''}
        </p>
      )}
      <p class="visually-hidden" role="status">
        {announced}
      </p>
    </div>
  );
}
