import type { StrategyTemplate } from './types';

/** One checkbox per template, in a fieldset whose error (none chosen, one refused) sits under its legend. */
export function TemplateChecklist(props: {
  templates: readonly StrategyTemplate[];
  chosen: ReadonlySet<string>;
  error: string | undefined;
  onChange: (next: ReadonlySet<string>) => void;
}) {
  const toggle = (id: string, on: boolean) => {
    const next = new Set(props.chosen);
    if (on) next.add(id);
    else next.delete(id);
    props.onChange(next);
  };
  return (
    <fieldset class="template-checklist" aria-describedby={props.error ? 'strategies-error' : undefined}>
      <legend>Templates</legend>
      {props.error && (
        <p class="field__error" id="strategies-error" role="alert">
          {props.error}
        </p>
      )}
      <div class="template-checklist__actions">
        <button type="button" class="link-button" onClick={() => props.onChange(new Set(props.templates.map((template) => template.id)))}>
          Select all
        </button>
        <button type="button" class="link-button" onClick={() => props.onChange(new Set())}>
          Clear
        </button>
      </div>
      <ul class="template-checklist__items">
        {props.templates.map((template) => (
          <li key={template.id}>
            <label title={template.description}>
              <input
                type="checkbox"
                name="strategies"
                value={template.id}
                checked={props.chosen.has(template.id)}
                aria-invalid={Boolean(props.error)}
                onChange={(event) => toggle(template.id, event.currentTarget.checked)}
              />
              {template.name}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
