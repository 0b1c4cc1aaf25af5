import { useEffect, useState } from 'preact/hooks';
import { api, describeError } from '../api';
import type { StrategyTemplate } from './types';

/** The template catalogue (`GET /api/templates`), loaded once per page. */
export function useTemplates(): { templates: readonly StrategyTemplate[] | undefined; error: string | undefined } {
  const [templates, setTemplates] = useState<readonly StrategyTemplate[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    let current = true;
    api.get<StrategyTemplate[]>('/api/templates').then(
      (found) => current && setTemplates(found),
      (failure) => current && setError(`The strategy templates could not be loaded: ${describeError(failure)}`),
    );
    return () => void (current = false);
  }, []);
  return { templates, error };
}
