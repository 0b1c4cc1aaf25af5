import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/**
 * After a refused submit (whenever `errors` changes), moves focus to the form's first control marked
 * invalid. Its error, tied to it by `aria-describedby`, is then read out with it: field errors are not
 * live regions, so nothing is announced twice.
 */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, errors: unknown): void {
  useEffect(() => {
    const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
  }, [errors]);
}
