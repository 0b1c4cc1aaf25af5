import { Ajv, type AnySchema, type Options, type ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { BadRequest } from '../errors.js';

// ajv-formats is CommonJS, and its typings do not describe its ESM default export.
const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv) => Ajv;

const COMMON: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false };

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type ValidatorFactory = NonNullable<NonNullable<SchemaController['compilersFactory']>['buildValidator']>;

/** The schemas added with `app.addSchema`, by $id. */
type SharedSchemas = Readonly<Record<string, AnySchema | AnySchema[]>>;

/** What Fastify passes the validator compiler for each part of each route. */
interface RouteSchema {
  readonly schema: AnySchema;
  readonly httpPart?: string;
}

/**
 * Request validation, given to Fastify as `schemaController.compilersFactory.buildValidator`, which
 * Fastify calls with the shared schemas (`app.addSchema`) so that a route may `$ref` them.
 * Query strings, path parameters and headers are text by nature, so numbers and booleans there are
 * coerced; a JSON body is taken as sent, so `"qty": "10"` is refused rather than guessed at.
 */
export function buildRequestValidator(externalSchemas: SharedSchemas): (route: RouteSchema) => ValidateFunction {
  const coercing = requestAjv('array', externalSchemas);
  const exact = requestAjv(false, externalSchemas);
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? exact : coercing;
    // A route may use a shared schema itself as its body; Ajv compiles each $id once.
    const shared = typeof schema === 'object' && typeof schema.$id === 'string' ? ajv.getSchema(schema.$id) : undefined;
    return (shared as ValidateFunction | undefined) ?? ajv.compile(schema);
  };
}

/** The `schemaController` server option that installs `buildRequestValidator`. */
export const requestValidation: SchemaController = {
  // Fastify's type for the factory describes Ajv's own `compile`, not the route-aware compiler it really calls.
  compilersFactory: { buildValidator: buildRequestValidator as unknown as ValidatorFactory },
};

function requestAjv(coerceTypes: Options['coerceTypes'], externalSchemas: SharedSchemas): Ajv {
  const ajv = addFormats(new Ajv({ ...COMMON, coerceTypes }));
  for (const schema of Object.values(externalSchemas)) ajv.addSchema(schema);
  return ajv;
}

/** Bodies are JSON or nothing: without this, Fastify would accept `text/plain` as a string body. */
export function acceptJsonBodiesOnly(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
}

/**
 * Refuses U+0000 anywhere in a request's JSON body, query string or path parameters, with a 400 naming
 * the field. PostgreSQL text cannot hold NUL (SQLite can), so without this one dialect would answer a 500.
 */
export function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const parts = { body: request.body, querystring: request.query, params: request.params } as const;
    for (const [part, value] of Object.entries(parts)) {
      const path = pathOfNul(value, part);
      if (path !== undefined) {
        throw new BadRequest('validation_failed', `${path} contains the NUL character (U+0000), which no text field accepts.`, [
          { field: path, message: 'contains U+0000' },
        ]);
      }
    }
  });
}

/** The path of the first string (or key) holding U+0000; iterative, so no nesting depth can overflow the stack. */
function pathOfNul(root: unknown, rootPath: string): string | undefined {
  const pending: [unknown, string][] = [[root, rootPath]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return path;
        pending.push([item, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`]);
      }
    }
  }
  return undefined;
}
