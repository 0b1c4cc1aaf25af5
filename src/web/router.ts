import { createElement, type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * History-API routing: real paths (`/devices`, `/verify-email?token=…`) that the server answers with
 * index.html, so links from mails and reloads land on the right page.
 */
const listeners = new Set<() => void>();

/** `keepScroll`: the page stays where it is (an address that follows what the page shows, not a new page). */
export function navigate(to: string, options: { replace?: boolean; keepScroll?: boolean } = {}): void {
  if (to === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listeners.forEach((listener) => listener());
  if (!options.keepScroll) window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => listeners.forEach((listener) => listener()));

/** The current location (path and query), re-rendering on every navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** An in-app link: a real `<a href>` (keyboard, middle-click and copy work) that navigates without a reload. */
export function Link(props: { href: string; class?: string; children: ComponentChildren; 'aria-current'?: 'page' }) {
  return createElement('a', {
    ...props,
    onClick: (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(props.href);
    },
  });
}
