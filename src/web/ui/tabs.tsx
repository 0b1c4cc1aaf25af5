import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

export interface Tab {
  readonly key: string;
  readonly label: string;
  readonly panel: ComponentChildren;
}

/**
 * Tabs as WAI-ARIA describes them: a `tablist` of buttons, the chosen one in the tab order, arrow keys (and Home /
 * End) move between them and choose; each panel is labelled by its tab. A panel is rendered once first chosen (a
 * chart is drawn only when seen) and then stays, `hidden` while another is chosen, so it keeps its state; `showAll`
 * (printing) shows every panel.
 */
export function Tabs(props: { label: string; tabs: readonly Tab[]; chosen: string; onChoose: (key: string) => void; showAll?: boolean }) {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const { tabs, chosen } = props;
  const [seen, setSeen] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => setSeen((before) => (before.has(chosen) ? before : new Set([...before, chosen]))), [chosen]);

  function onKeyDown(event: KeyboardEvent) {
    const index = tabs.findIndex((tab) => tab.key === chosen);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = tabs[(next + tabs.length) % tabs.length]!;
    props.onChoose(target.key);
    list.current?.querySelector<HTMLButtonElement>(`#${CSS.escape(`${id}-tab-${target.key}`)}`)?.focus();
  }

  return (
    <div class="tabs">
      <div class="tabs__list" role="tablist" aria-label={props.label} ref={list} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            type="button"
            role="tab"
            id={`${id}-tab-${tab.key}`}
            aria-selected={tab.key === chosen}
            aria-controls={`${id}-panel-${tab.key}`}
            tabIndex={tab.key === chosen ? 0 : -1}
            onClick={() => props.onChoose(tab.key)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.key}
          class={`tabs__panel tabs__panel--${tab.key}`}
          role="tabpanel"
          id={`${id}-panel-${tab.key}`}
          aria-labelledby={`${id}-tab-${tab.key}`}
          hidden={tab.key !== chosen && !props.showAll}
        >
          {(tab.key === chosen || seen.has(tab.key) || props.showAll) && tab.panel}
        </div>
      ))}
    </div>
  );
}
