/** Catalogue entries for the lab's unit tests, as GET /api/templates answers them (not part of the app). */
import type { StrategyTemplate } from './types';

export const SMA_TEMPLATE: StrategyTemplate = {
  id: 'sma_crossover',
  name: 'SMA Crossover',
  description: '',
  parameters: [
    { name: 'fast_period', type: 'integer', default: 10, min: 2, max: 100, description: '' },
    { name: 'slow_period', type: 'integer', default: 30, min: 5, max: 400, description: '' },
  ],
};
