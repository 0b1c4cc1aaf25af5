import { Ajv, type Options } from 'ajv';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

// ajv-formats is CommonJS, and its typings do not describe its ESM default export.
const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv) => Ajv;

const COMMON: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false };

/**
 * Request validation. Query strings and path parameters are text by nature, so numbers and booleans
 * there are coerced; a JSON body is taken as sent, so `"qty": "10"` is refused rather than guessed at.
 */
export function registerValidation(app: FastifyInstance): void {
  const coercing = addFormats(new Ajv({ ...COMMON, coerceTypes: 'array' }));
  const exact = addFormats(new Ajv({ ...COMMON, coerceTypes: false }));
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? exact : coercing).compile(schema));
}
