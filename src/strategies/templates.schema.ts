import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { STRATEGY_TEMPLATES } from '../engine/index.js';

/**
 * The built-in strategy templates as the API shows them: `GET /api/templates`, and `GET /api/strategies`
 * without a session (the catalogue's legacy name).
 */
export const StrategyTemplateSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    parameters: Type.Array(
      Type.Object({
        name: Type.String(),
        type: Type.String({ description: '`integer` or `number`' }),
        default: Type.Number(),
        min: Type.Number(),
        max: Type.Number(),
        description: Type.String(),
      }),
    ),
  },
  { description: 'Strategy template (legacy backtest catalogue entry)' },
);

export const TemplateList = Type.Array(StrategyTemplateSchema);
export type TemplateList = Static<typeof TemplateList>;

const CATALOGUE: TemplateList = STRATEGY_TEMPLATES.map(({ parameters, ...template }) => ({
  ...template,
  parameters: parameters.map((parameter) => ({ ...parameter })),
}));

/** The catalogue, the same for everyone. */
export function templateCatalogue(_request: FastifyRequest): TemplateList {
  return CATALOGUE;
}
