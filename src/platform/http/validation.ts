import { Ajv, type AnySchema, type Options, type ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { BadRequest } from '../errors.js';
import { quotedName } from './field-names.js';

// ajv-formats is CommonJS, and its typings do not describe its ESM default export.
const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv) => Ajv;

// One problem is enough to refuse a request: validation stops at the first (see `validatorOf` for small bodies).
const COMMON: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };

/**
 * What a request schema leaves unbounded is bounded here, once for every route: arrays, objects and strings
 * get these limits unless the schema names its own. The body limit bounds the rest.
 */
export const REQUEST_BOUNDS = { maxItems: 1_000, maxProperties: 200, maxLength: 65_536 } as const;

/** A refused request holding at most this many values is validated again to list all its problems. */
const ALL_PROBLEMS_UP_TO_VALUES = 1_000;

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type ValidatorFactory = NonNullable<NonNullable<SchemaController['compilersFactory']>['buildValidator']>;

/** The schemas added with `app.addSchema`, by $id. */
type SharedSchemas = Readonly<Record<string, AnySchema | AnySchema[]>>;

/** What Fastify passes the validator compiler for each part of each route. */
interface RouteSchema {
  readonly schema: AnySchema;
  readonly httpPart?: string;
}

/** An Ajv error as Fastify hands it on (`error.validation`). */
type Issue = NonNullable<ValidateFunction['errors']>[number];

/**
 * Request validation, given to Fastify as `schemaController.compilersFactory.buildValidator`, which
 * Fastify calls with the shared schemas (`app.addSchema`) so that a route may `$ref` them.
 * Query strings, path parameters and headers are text by nature, so numbers and booleans there are
 * coerced — from plain decimals only (`0x10`, `1e1`, ` 5` are refused) — and a query string names only
 * known parameters; a JSON body is taken as sent, so `"qty": "10"` is refused rather than guessed at.
 */
export function buildRequestValidator(externalSchemas: SharedSchemas): (route: RouteSchema) => ValidateFunction {
  const coercing = requestAjvs('array', externalSchemas);
  const exact = requestAjvs(false, externalSchemas);
  return ({ schema, httpPart }) => {
    const ajvs = httpPart === 'body' ? exact : coercing;
    const bounded = withRequestBounds(schema, { closed: httpPart === 'querystring' });
    const decimals = httpPart === 'querystring' || httpPart === 'params' ? plainDecimalCheck(bounded) : undefined;
    return validatorOf(
      compileIn(ajvs.firstProblem, bounded),
      () => compileIn(ajvs.allProblems, bounded),
      decimals,
    );
  };
}

/** The `schemaController` server option that installs `buildRequestValidator`. */
export const requestValidation: SchemaController = {
  // Fastify's type for the factory describes Ajv's own `compile`, not the route-aware compiler it really calls.
  compilersFactory: { buildValidator: buildRequestValidator as unknown as ValidatorFactory },
};

function requestAjvs(coerceTypes: Options['coerceTypes'], externalSchemas: SharedSchemas): { firstProblem: Ajv; allProblems: Ajv } {
  return { firstProblem: requestAjv({ coerceTypes }, externalSchemas), allProblems: requestAjv({ coerceTypes, allErrors: true }, externalSchemas) };
}

function requestAjv(options: Options, externalSchemas: SharedSchemas): Ajv {
  const ajv = addFormats(new Ajv({ ...COMMON, ...options }));
  for (const schema of Object.values(externalSchemas)) ajv.addSchema(withRequestBounds(schema as AnySchema, { closed: false }));
  return ajv;
}

function compileIn(ajv: Ajv, schema: AnySchema): ValidateFunction {
  // A route may use a shared schema itself as its body; Ajv compiles each $id once.
  const shared = typeof schema === 'object' && typeof schema.$id === 'string' ? ajv.getSchema(schema.$id) : undefined;
  return (shared as ValidateFunction | undefined) ?? ajv.compile(schema);
}

/**
 * Validation that stops at the first problem, so a hostile body (200,000 bad items, 95,000 unknown keys) costs
 * one problem's work; a refused request small enough (at most `ALL_PROBLEMS_UP_TO_VALUES` values) is checked again
 * with every problem listed, so that a form learns all its mistakes at once. The all-problems validator is compiled
 * on first need.
 */
function validatorOf(firstProblem: ValidateFunction, compileAllProblems: () => ValidateFunction, precheck?: (data: unknown) => Issue | undefined): ValidateFunction {
  let allProblems: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    const refused = precheck?.(data);
    if (refused) {
      validate.errors = [refused];
      return false;
    }
    if (firstProblem(data)) {
      validate.errors = null;
      return true;
    }
    validate.errors = firstProblem.errors;
    if (holdsAtMost(data, ALL_PROBLEMS_UP_TO_VALUES)) {
      allProblems ??= compileAllProblems();
      if (!allProblems(data)) validate.errors = allProblems.errors;
    }
    return false;
  }) as ValidateFunction;
  return validate;
}

/** Whether `root` holds at most `limit` values (itself, items, members), counted without recursion. */
function holdsAtMost(root: unknown, limit: number): boolean {
  const pending: unknown[] = [root];
  let count = 1;
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    for (const key in next) {
      count += 1;
      if (count > limit) return false;
      pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return true;
}

type SchemaNode = Record<string, unknown>;

/** Keywords whose values are data, not schemas: never walked. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

/**
 * A copy of `schema` with `REQUEST_BOUNDS` added where a node leaves arrays, objects or strings unbounded; with
 * `closed`, the top-level object refuses unknown members unless it says otherwise (query strings: `limit[]=1`).
 */
export function withRequestBounds(schema: AnySchema, options: { closed: boolean }): AnySchema {
  const copy = boundedCopy(schema);
  if (options.closed && isSchemaNode(copy) && copy.type === 'object' && copy.additionalProperties === undefined) {
    copy.additionalProperties = false;
  }
  return copy as AnySchema;
}

function boundedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(boundedCopy);
  if (typeof value !== 'object' || value === null) return value;
  const node: SchemaNode = {};
  for (const [key, member] of Object.entries(value)) node[key] = DATA_KEYWORDS.has(key) ? member : boundedCopy(member);
  const types = typesOf(node);
  if (types.includes('array') && node.maxItems === undefined) node.maxItems = REQUEST_BOUNDS.maxItems;
  if (types.includes('object') && node.maxProperties === undefined) node.maxProperties = REQUEST_BOUNDS.maxProperties;
  if (types.includes('string') && node.maxLength === undefined) node.maxLength = REQUEST_BOUNDS.maxLength;
  return node;
}

function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON types a schema node declares (`type: 'x'` or `type: ['x', 'y']`); a `properties` map named `type` is no type. */
function typesOf(node: SchemaNode): readonly string[] {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type.filter((type): type is string => typeof type === 'string');
  return [];
}

/**
 * For a query string or path parameters: the issue for the first numeric parameter not written as a plain
 * decimal (Ajv's coercion would read `0x10` as 16, `1e1` as 10 and ` 5` as 5).
 */
function plainDecimalCheck(schema: AnySchema): ((data: unknown) => Issue | undefined) | undefined {
  if (!isSchemaNode(schema) || !isSchemaNode(schema.properties)) return undefined;
  const numeric = new Map<string, RegExp>();
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isSchemaNode(property)) continue;
    const types = [...typesOf(property), ...[property.anyOf, property.oneOf].flat().filter(isSchemaNode).flatMap(typesOf)];
    if (types.includes('number')) numeric.set(name, /^-?\d{1,20}(\.\d{1,20})?$/);
    else if (types.includes('integer')) numeric.set(name, /^-?\d{1,20}$/);
  }
  if (numeric.size === 0) return undefined;
  return (data) => {
    if (!isSchemaNode(data)) return undefined;
    for (const [name, pattern] of numeric) {
      const values = [data[name]].flat();
      if (values.some((value) => typeof value === 'string' && !pattern.test(value))) {
        return { instancePath: `/${name}`, schemaPath: '#/properties', keyword: 'type', params: {}, message: 'must be a plain decimal number' };
      }
    }
    return undefined;
  };
}

/**
 * Bodies are JSON or nothing: without this, Fastify would accept `text/plain` as a string body. JSON is read as
 * bytes and must be UTF-8: a body with any other byte sequence is a 400 `malformed_json` (Fastify's own parser would
 * turn each bad byte into U+FFFD and store that). Parsing is then Fastify's own, with its prototype-poisoning guard.
 * A route without a body schema takes no body: an empty body labelled as JSON or an empty object `{}` (what many
 * clients send on every POST) is taken as no body, any other is a 400 `unexpected_body`.
 */
export function parseJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes: Buffer, done) => {
    // No route: a 404 follows.
    if (request.is404) return done(null, undefined);
    const takesBody = request.routeOptions.schema?.body !== undefined;
    if (!takesBody) {
      if (isNoBody(bytes)) done(null, undefined);
      else done(new BadRequest('unexpected_body', `${request.method} ${request.routeOptions.url ?? ''} takes no request body; send none, or {}.`), undefined);
      return;
    }
    if (bytes.length === 0) {
      done(new BadRequest('malformed_json', 'The request says it carries JSON but the body is empty.'), undefined);
      return;
    }
    if (!holdsFewValues(bytes)) {
      done(new BadRequest('too_many_values', `The request body holds more than ${MAX_BODY_VALUES} values; no request takes as many.`), undefined);
      return;
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      done(new BadRequest('malformed_json', 'The request body is not valid UTF-8.'), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

/** Nothing, or an empty JSON object (JSON's whitespace allowed around and inside it). */
const EMPTY_OBJECT = /^[ \t\n\r]*\{[ \t\n\r]*\}[ \t\n\r]*$/;

/** Whether a body sent to a route that takes none stands for no body: empty, or `{}`. Short bodies only are read. */
function isNoBody(bytes: Buffer): boolean {
  return bytes.length === 0 || (bytes.length <= 64 && EMPTY_OBJECT.test(bytes.toString('latin1')));
}

/**
 * At most this many values (array items and object members) in a JSON body, counted by its commas before it is
 * parsed: building a 95,000-member object costs far more than refusing it. The largest legitimate body (a breach
 * notice naming 10,000 accounts) holds half as many.
 */
export const MAX_BODY_VALUES = 20_000;

const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether a JSON text has at most `MAX_BODY_VALUES` commas outside its strings; a shorter text always has. */
function holdsFewValues(bytes: Buffer): boolean {
  if (bytes.length <= MAX_BODY_VALUES) return true;
  let commas = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === COMMA) {
      commas += 1;
      if (commas >= MAX_BODY_VALUES) return false;
    }
  }
  return true;
}

/** Why a value cannot be taken, by kind: what the detail and the message say. */
const UNREPRESENTABLE = {
  nul: { detail: 'contains U+0000', message: 'contains the NUL character (U+0000), which no text field accepts' },
  surrogate: { detail: 'contains a lone UTF-16 surrogate', message: 'contains a lone UTF-16 surrogate (such as \\ud800), which is no character' },
  infinite: { detail: 'must be a finite number', message: 'is a number beyond the finite range (1e309 reads as Infinity); numbers must be finite' },
} as const;

type Unrepresentable = keyof typeof UNREPRESENTABLE;

/**
 * Refuses, in a request's JSON body, query string or path parameters, values no field may hold, with a 400 naming
 * the field: U+0000 (PostgreSQL text cannot hold it, SQLite can: one dialect would answer a 500), a lone UTF-16
 * surrogate (each database would store its own replacement character) and a number that is not finite (`1e309`
 * parses as Infinity, which JSON cannot even write back); and a query string that is not percent-encoded UTF-8
 * (400 `bad_request`). Runs before any route's schema, for every route.
 */
export function refuseUnrepresentableValues(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    refuseMalformedQueryString(request.url);
    const parts = { body: request.body, querystring: request.query, params: request.params } as const;
    for (const [part, value] of Object.entries(parts)) {
      const found = firstUnrepresentable(value, part);
      if (found !== undefined) {
        const { detail, message } = UNREPRESENTABLE[found.kind];
        throw new BadRequest('validation_failed', `${found.path} ${message}.`, [{ field: found.path, message: detail }]);
      }
    }
  });
}

/**
 * Fastify's query-string parser keeps what it cannot decode as it is (`q=%zz` reads as `%zz`, `%FF` as U+FFFD):
 * a query string whose names or values are not percent-encoded UTF-8 is a 400 instead.
 */
function refuseMalformedQueryString(url: string): void {
  const start = url.indexOf('?');
  if (start < 0) return;
  for (const pair of url.slice(start + 1).split('&')) {
    try {
      decodeURIComponent(pair.replace(/\+/g, ' '));
    } catch {
      throw new BadRequest('bad_request', 'The query string is not valid percent-encoded UTF-8.');
    }
  }
}

/**
 * The path and kind of the first value (or key) no field may hold. Iterative, so no nesting depth can overflow the
 * stack; a path is only spelled out for containers and for the value refused.
 */
function firstUnrepresentable(root: unknown, rootPath: string): { path: string; kind: Unrepresentable } | undefined {
  const rootKind = leafProblem(root);
  if (rootKind) return { path: rootPath, kind: rootKind };
  const pending: [object, string][] = typeof root === 'object' && root !== null ? [[root, rootPath]] : [];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [container, path] = next;
    const isArray = Array.isArray(container);
    for (const key in container) {
      const member = (container as Record<string, unknown>)[key];
      const memberPath = () => (isArray ? `${path}[${key}]` : `${path}.${quotedName(key)}`);
      const keyKind = isArray ? undefined : textProblem(key);
      if (keyKind) return { path, kind: keyKind };
      const kind = leafProblem(member);
      if (kind) return { path: memberPath(), kind };
      if (typeof member === 'object' && member !== null) pending.push([member, memberPath()]);
    }
  }
  return undefined;
}

function leafProblem(value: unknown): Unrepresentable | undefined {
  if (typeof value === 'string') return textProblem(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return 'infinite';
  return undefined;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textProblem(text: string): Unrepresentable | undefined {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'surrogate';
  return undefined;
}
