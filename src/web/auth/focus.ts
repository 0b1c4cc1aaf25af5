import { useEffect, useRef } from 'preact/hooks';

/**
 * Moves keyboard focus to an element (a page heading, a result) when it appears and whenever `key`
 * changes, so that after a navigation or a finished step, screen-reader and keyboard users start there.
 * The element needs `tabIndex={-1}`.
 */
export function useFocusOn<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [key]);
  return ref;
}
