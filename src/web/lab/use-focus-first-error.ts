import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';
import type { FormErrors } from './form-errors';

/** After a refused submit, moves focus to the first control marked invalid, so its error is read out. */
export function useFocusFirstError(form: RefObject<HTMLFormElement | null>, errors: FormErrors): void {
  useEffect(() => {
    const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
  }, [errors]);
}
