import fc from 'fast-check';

/**
 * Bad requests generated from the OpenAPI document: for one operation, requests that each carry one defect
 * the contract refuses (a body against its schema, a path or query parameter, a header), plus harmless noise.
 * Everything is read from the document, so a route added later is fuzzed without being named here.
 */

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
  pattern?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface Parameter {
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly name: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
}

export interface Operation {
  readonly method: string;
  /** The path template, `{name}` for path parameters. */
  readonly path: string;
  readonly parameters: readonly Parameter[];
  readonly body?: { readonly required: boolean; readonly schema: JsonSchema };
  /** Every method the document declares on this path. */
  readonly pathMethods: readonly string[];
}

/** Every operation of an OpenAPI 3 document. */
export function operationsOf(document: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const parameters = ((operation.parameters ?? []) as Parameter[]).map((p) => ({ ...p, required: Boolean(p.required), schema: p.schema ?? {} }));
      const requestBody = operation.requestBody as { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } | undefined;
      const schema = requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters,
        pathMethods: Object.keys(methods).map((m) => m.toUpperCase()),
        ...(requestBody ? { body: { required: Boolean(requestBody.required), schema: schema ?? {} } } : {}),
      });
    }
  }
  return operations;
}

/** What makes a generated request one the contract refuses; the report counts failures by it. */
export type Defect =
  | 'body.wrong_type'
  | 'body.out_of_range'
  | 'body.missing_required'
  | 'body.unknown_fields'
  | 'body.huge'
  | 'body.deep'
  | 'body.non_finite'
  | 'body.invalid_utf8'
  | 'body.lone_surrogate'
  | 'body.malformed_json'
  | 'body.empty_json'
  | 'body.on_bodiless_route'
  | 'header.content_type'
  | 'header.foreign_origin'
  | 'path.bad_value'
  /** A well-formed id that names no row, with a well-formed body: the route's own code runs and must answer 404. */
  | 'path.unknown_id'
  | 'query.bad_value'
  | 'query.bad_encoding'
  | 'query.duplicate_key'
  | 'query.array_syntax'
  | 'query.missing_required'
  | 'method.not_allowed'
  /** A route with nothing to get wrong (no body, no parameters, a safe method): noise only, any status but 5xx. */
  | 'none';

export interface FuzzRequest {
  readonly method: string;
  /** As sent on the wire: may hold malformed percent-encodings. */
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: Buffer;
  readonly defect: Defect;
}

/** Stable per-operation seeds, so a route added later does not change the cases of the others. */
export function operationSeed(seed: number, operation: Operation): number {
  let hash = seed | 0;
  for (const char of `${operation.method} ${operation.path}`) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** `count` requests for `operation`, the same for the same seed. */
export function casesFor(operation: Operation, seed: number, count: number): FuzzRequest[] {
  return fc.sample(requestArbitrary(operation), { seed: operationSeed(seed, operation), numRuns: count });
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PLACEHOLDER = '\u0001fuzz-raw\u0001';

function requestArbitrary(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const defects = applicableDefects(operation);
  return fc.constantFrom(...defects).chain((defect) =>
    fc
      .tuple(defectArbitrary(operation, defect), noiseArbitrary())
      .map(([request, noise]) => ({ ...request, headers: { ...noise, ...request.headers }, defect })),
  );
}

function applicableDefects(operation: Operation): Defect[] {
  const defects: Defect[] = ['method.not_allowed'];
  const body = operation.body;
  const query = operation.parameters.filter((p) => p.in === 'query');
  const path = operation.parameters.filter((p) => p.in === 'path');
  if (body) {
    defects.push('body.malformed_json', 'header.content_type');
    if (fieldsOf(body.schema, hasWrongType).length > 0) defects.push('body.wrong_type', 'body.wrong_type', 'body.huge');
    if (fieldsOf(body.schema, (s) => !allows(s, 'array') && !allows(s, 'object')).length > 0) defects.push('body.deep');
    if (body.required) defects.push('body.empty_json');
    if (fieldsOf(body.schema, (s) => hasBounds(s)).length > 0) defects.push('body.out_of_range');
    if (requiredPaths(body.schema).length > 0) defects.push('body.missing_required');
    if (closedObjects(body.schema).length > 0) defects.push('body.unknown_fields', 'body.unknown_fields');
    if (fieldsOf(body.schema, (s) => allows(s, 'number')).length > 0) defects.push('body.non_finite', 'body.non_finite');
    if (fieldsOf(body.schema, (s) => allows(s, 'string')).length > 0) defects.push('body.invalid_utf8', 'body.lone_surrogate', 'body.invalid_utf8', 'body.lone_surrogate');
  } else if (STATE_CHANGING.has(operation.method)) {
    defects.push('body.on_bodiless_route', 'header.content_type');
  }
  if (STATE_CHANGING.has(operation.method)) defects.push('header.foreign_origin');
  if (path.length > 0) defects.push('path.bad_value', 'path.bad_value', 'path.unknown_id');
  if (query.some(isTypedQuery)) {
    defects.push('query.bad_value', 'query.bad_value', 'query.duplicate_key', 'query.array_syntax');
  }
  if (query.length > 0) defects.push('query.bad_encoding');
  if (query.some((p) => p.required)) defects.push('query.missing_required');
  return defects.length === 1 && operation.method === 'GET' ? ['none', 'method.not_allowed'] : defects;
}

function isUuidParameter(parameter: Parameter): boolean {
  return parameter.schema.format === 'uuid' || Boolean(parameter.schema.pattern?.includes('{8}-'));
}

/** A query parameter whose value can be wrong: numeric, boolean or one of a list (any text is a valid free string). */
function isTypedQuery(parameter: Parameter): boolean {
  const types = typesOf(parameter.schema);
  return parameter.in === 'query' && (Boolean(parameter.schema.enum) || (types.size > 0 && !types.has('string')));
}

// ---------------------------------------------------------------------------------------------------------
// One defect each

function defectArbitrary(operation: Operation, defect: Defect): fc.Arbitrary<Omit<FuzzRequest, 'defect'>> {
  const good = () => goodBody(operation);
  switch (defect) {
    case 'body.wrong_type':
      return fieldAndValue(operation, hasWrongType, (field) => wrongTypeValue(field))
        // A body of `null` is read as no body (routes with an optional payload take it so): not a defect.
        .filter(([path, value]) => !(path.length === 0 && value === null))
        .map(([path, value]) => jsonRequest(operation, setAt(good(), path, value)));
    case 'body.out_of_range':
      return fieldAndValue(operation, hasBounds, (field) => fc.constant(outOfRange(field))).map(([path, value]) =>
        jsonRequest(operation, setAt(good(), path, value)),
      );
    case 'body.missing_required':
      return fc.constantFrom(...requiredPaths(operation.body!.schema)).map((path) => jsonRequest(operation, deleteAt(good(), path)));
    case 'body.unknown_fields':
      return fc
        .tuple(fc.constantFrom(...closedObjects(operation.body!.schema)), fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 500, max: 5000 })), fc.string({ minLength: 1, maxLength: 12 }))
        .map(([path, count, prefix]) => {
          const body = good();
          const target = (path.length === 0 ? body : getAt(body, path)) as Record<string, unknown>;
          if (target && typeof target === 'object') for (let i = 0; i < count; i += 1) target[`zz_${prefix}_${i}`] = i;
          return jsonRequest(operation, body);
        });
    case 'body.huge':
      return fieldAndValue(operation, hasWrongType, (field) => hugeWrongValue(field)).map(([path, value]) => jsonRequest(operation, setAt(good(), path, value)));
    case 'body.deep':
      return fieldAndValue(operation, (s) => !allows(s, 'array') && !allows(s, 'object'), () => deepValue()).map(([path, value]) =>
        jsonRequest(operation, setAt(good(), path, value)),
      );
    case 'body.non_finite':
      return fieldAndValue(operation, (s) => allows(s, 'number'), () => fc.constantFrom('1e309', '-1e309', '1e400', '-2e308')).map(([path, raw]) =>
        jsonRequest(operation, setAt(good(), path, PLACEHOLDER), Buffer.from(raw)),
      );
    case 'body.invalid_utf8':
      return fieldAndValue(operation, (s) => allows(s, 'string'), () => invalidUtf8String()).map(([path, raw]) =>
        jsonRequest(operation, setAt(good(), path, PLACEHOLDER), raw),
      );
    case 'body.lone_surrogate':
      return fieldAndValue(operation, (s) => allows(s, 'string'), () => loneSurrogateString()).map(([path, raw]) =>
        jsonRequest(operation, setAt(good(), path, PLACEHOLDER), Buffer.from(raw)),
      );
    case 'body.malformed_json':
      return malformedJson(operation).map((text) => rawRequest(operation, 'application/json', Buffer.from(text, 'latin1')));
    case 'body.empty_json':
      return fc.constant(rawRequest(operation, 'application/json', Buffer.alloc(0)));
    case 'body.on_bodiless_route':
      // `{}` stands for no body (DESIGN), so it is no defect.
      return fc.oneof(fc.jsonValue().filter((value) => !isEmptyObject(value)), fc.constant({ unexpected: true })).map((value) => rawRequest(operation, 'application/json', Buffer.from(JSON.stringify(value ?? null))));
    case 'header.content_type':
      return fc
        .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonx', 'application/octet-stream', 'text/json')
        .map((type) => rawRequest(operation, type, Buffer.from(JSON.stringify(operation.body ? goodBody(operation) : { a: 1 }))));
    case 'header.foreign_origin':
      return fc.constantFrom('https://evil.example', 'null', 'http://localhost:3000.evil.example', 'http://localhost:3001', 'file://').map((origin) => {
        const request = operation.body ? jsonRequest(operation, goodBody(operation)) : baseRequest(operation);
        return { ...request, headers: { ...request.headers, origin } };
      });
    case 'path.bad_value':
      return fc
        .tuple(fc.constantFrom(...operation.parameters.filter((p) => p.in === 'path')), badPathValue())
        .map(([parameter, raw]) => withBody(operation, { ...baseRequest(operation, { [parameter.name]: raw }) }));
    case 'path.unknown_id':
      return fc
        .tuple(fc.constantFrom(...operation.parameters.filter((p) => p.in === 'path')), fc.uuid({ version: 4 }), fc.constantFrom('9007199254740993', '9999999999999999', '2147483648', '1000000007'), fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/))
        .map(([parameter, uuid, bigId, text]) => {
          const value = isUuidParameter(parameter) ? uuid : parameter.schema.pattern?.includes('[0-9]') ? bigId : `unknown-${text}`;
          return withBody(operation, baseRequest(operation, { [parameter.name]: value }));
        });
    case 'query.bad_value':
      return fc
        .constantFrom(...operation.parameters.filter(isTypedQuery))
        .chain((parameter) => badQueryValue(parameter.schema).map((raw) => baseRequest(operation, {}, [[parameter.name, raw]])));
    case 'query.bad_encoding':
      return fc
        .tuple(fc.constantFrom(...operation.parameters.filter((p) => p.in === 'query')), fc.constantFrom('%zz', '%', 'a%2', '%C3%28', '%ED%A0%80', '%FF%FE', '%E2%82'), fc.boolean())
        .map(([parameter, raw, inKey]) => baseRequest(operation, {}, [inKey ? [`${parameter.name}${raw}`, '1'] : [parameter.name, raw]]));
    case 'query.duplicate_key':
      return fc
        .constantFrom(...operation.parameters.filter(isTypedQuery))
        .map((parameter) => {
          const value = encodeURIComponent(String(plausible(parameter.schema)));
          return baseRequest(operation, {}, [[parameter.name, value], [parameter.name, value]]);
        });
    case 'query.array_syntax':
      return fc
        .tuple(fc.constantFrom(...operation.parameters.filter(isTypedQuery)), fc.constantFrom('[]', '[0]', '[a]'))
        .map(([parameter, suffix]) => baseRequest(operation, {}, [[`${parameter.name}${encodeURIComponent(suffix)}`, encodeURIComponent(String(plausible(parameter.schema)))]], { omit: parameter.name }));
    case 'query.missing_required':
      return fc
        .constantFrom(...operation.parameters.filter((p) => p.in === 'query' && p.required))
        .map((parameter) => baseRequest(operation, {}, [], { omit: parameter.name }));
    case 'method.not_allowed':
      return fc
        .constantFrom(...['PUT', 'PATCH', 'DELETE', 'POST', 'OPTIONS'].filter((method) => !operation.pathMethods.includes(method)))
        .map((method) => ({ ...baseRequest(operation), method }));
    case 'none':
      return fc.constant(baseRequest(operation));
  }
}

/** A schema-shaped body to carry one defect (a best guess: it need not pass every rule). */
function goodBody(operation: Operation): unknown {
  return operation.body ? plausible(operation.body.schema) : undefined;
}

function withBody(operation: Operation, request: Omit<FuzzRequest, 'defect'>): Omit<FuzzRequest, 'defect'> {
  return operation.body ? { ...jsonRequest(operation, goodBody(operation)), url: request.url } : request;
}

function baseRequest(
  operation: Operation,
  pathValues: Record<string, string> = {},
  query: [string, string][] = [],
  options: { omit?: string } = {},
): Omit<FuzzRequest, 'defect'> {
  let url = operation.path;
  for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
    url = url.replace(`{${parameter.name}}`, pathValues[parameter.name] ?? encodeURIComponent(String(plausible(parameter.schema))));
  }
  const named = new Set(query.map(([key]) => key));
  const pairs = [
    ...operation.parameters
      .filter((p) => p.in === 'query' && p.required && !named.has(p.name) && p.name !== options.omit)
      .map((p): [string, string] => [p.name, encodeURIComponent(String(plausible(p.schema)))]),
    ...query,
  ];
  if (pairs.length > 0) url += `?${pairs.map(([key, value]) => `${key}=${value}`).join('&')}`;
  return { method: operation.method, url, headers: {} };
}

function jsonRequest(operation: Operation, body: unknown, raw?: Buffer): Omit<FuzzRequest, 'defect'> {
  const text = JSON.stringify(body === undefined ? {} : body);
  if (!raw) return rawRequest(operation, 'application/json', Buffer.from(text));
  const quoted = JSON.stringify(PLACEHOLDER);
  const at = text.indexOf(quoted);
  const payload = at < 0 ? Buffer.from(text) : Buffer.concat([Buffer.from(text.slice(0, at)), raw, Buffer.from(text.slice(at + quoted.length))]);
  return rawRequest(operation, 'application/json', payload);
}

function rawRequest(operation: Operation, contentType: string, payload: Buffer): Omit<FuzzRequest, 'defect'> {
  return { ...baseRequest(operation), headers: { 'content-type': contentType }, payload };
}

// ---------------------------------------------------------------------------------------------------------
// Schemas

type FieldPath = (string | number)[];

export function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) for (const variant of variants) for (const type of typesOf(variant)) types.add(type);
  if (schema.type) for (const type of [schema.type].flat()) types.add(type);
  if (schema.enum) for (const value of schema.enum) types.add(value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value);
  if (schema.const !== undefined) types.add(schema.const === null ? 'null' : typeof schema.const);
  if (schema.properties && types.size === 0) types.add('object');
  if (schema.nullable) types.add('null');
  if (schema.allOf) for (const part of schema.allOf) for (const type of typesOf(part)) types.add(type);
  return types;
}

function allows(schema: JsonSchema, type: string): boolean {
  const types = typesOf(schema);
  if (type === 'number') return types.has('number') || types.has('integer');
  return types.has(type);
}

function hasBounds(schema: JsonSchema): boolean {
  return (
    schema.maxLength !== undefined ||
    schema.minLength !== undefined ||
    schema.maximum !== undefined ||
    schema.minimum !== undefined ||
    schema.exclusiveMaximum !== undefined ||
    schema.exclusiveMinimum !== undefined ||
    schema.maxItems !== undefined ||
    (schema.minItems ?? 0) > 0 ||
    (schema.enum !== undefined && schema.enum.every((value) => typeof value === 'string' || value === null))
  );
}

/** Paths to every field of a body schema (the body itself is `[]`) whose schema satisfies `test`. */
function fieldsOf(schema: JsonSchema, test: (schema: JsonSchema) => boolean, path: FieldPath = [], depth = 0): { path: FieldPath; schema: JsonSchema }[] {
  const found = test(schema) && typesOf(schema).size > 0 ? [{ path, schema }] : [];
  if (depth > 4) return found;
  const object = objectVariant(schema);
  if (object?.properties) for (const [name, property] of Object.entries(object.properties)) found.push(...fieldsOf(property, test, [...path, name], depth + 1));
  const array = arrayVariant(schema);
  if (array?.items) found.push(...fieldsOf(array.items, test, [...path, 0], depth + 1));
  return found;
}

function objectVariant(schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties) return schema;
  return (schema.anyOf ?? schema.oneOf ?? schema.allOf)?.find((variant) => variant.properties);
}

function arrayVariant(schema: JsonSchema): JsonSchema | undefined {
  if (schema.items) return schema;
  return (schema.anyOf ?? schema.oneOf)?.find((variant) => variant.items);
}

function requiredPaths(schema: JsonSchema, path: FieldPath = [], depth = 0): FieldPath[] {
  const object = objectVariant(schema);
  if (!object || depth > 4) return [];
  const found = (object.required ?? []).map((name) => [...path, name]);
  for (const name of object.required ?? []) {
    const property = object.properties?.[name];
    if (property && !property.nullable) found.push(...requiredPaths(property, [...path, name], depth + 1));
  }
  return found;
}

function closedObjects(schema: JsonSchema, path: FieldPath = [], depth = 0): FieldPath[] {
  const object = objectVariant(schema);
  if (!object || depth > 4) return [];
  const found = object.additionalProperties === false && !(schema.anyOf || schema.oneOf) ? [path] : [];
  for (const name of object.required ?? []) {
    const property = object.properties?.[name];
    if (property) found.push(...closedObjects(property, [...path, name], depth + 1));
  }
  return found;
}

/** A value the schema likely accepts. */
export function plausible(schema: JsonSchema, depth = 0): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum.find((value) => value !== null) ?? null;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return plausible(variants.find((v) => v.type !== 'null') ?? variants[0]!, depth);
  if (schema.allOf?.length) return plausible(Object.assign({}, ...schema.allOf), depth);
  const type = [schema.type ?? (schema.properties ? 'object' : 'string')].flat().find((t) => t !== 'null') ?? 'null';
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid' || schema.pattern?.includes('{8}-')) return '00000000-0000-4000-8000-000000000000';
      if (schema.pattern?.startsWith('^[1-9][0-9]')) return '1';
      if (schema.format === 'date') return '2024-01-02';
      if (schema.format === 'date-time') return '2024-01-02T00:00:00.000Z';
      if (schema.format === 'email') return 'fuzz@example.com';
      const length = Math.min(Math.max(schema.minLength ?? 1, 1), schema.maxLength ?? 8);
      return 'A'.repeat(length);
    }
    case 'integer':
    case 'number': {
      const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
      const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
      return low ?? (high !== undefined ? Math.min(high, 1) : 1);
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return depth > 4 ? [] : Array.from({ length: schema.minItems ?? 0 }, () => plausible(schema.items ?? {}, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      if (depth > 4) return object;
      for (const name of schema.required ?? []) object[name] = plausible(schema.properties?.[name] ?? {}, depth + 1);
      return object;
    }
  }
}

function fieldAndValue<T>(
  operation: Operation,
  test: (schema: JsonSchema) => boolean,
  value: (schema: JsonSchema) => fc.Arbitrary<T>,
): fc.Arbitrary<[FieldPath, T]> {
  const fields = fieldsOf(operation.body!.schema, test);
  const choices = fields.length > 0 ? fields : [{ path: [] as FieldPath, schema: operation.body!.schema }];
  return fc.constantFrom(...choices).chain((field) => value(field.schema).map((v): [FieldPath, T] => [field.path, v]));
}

const WRONG_TYPED: readonly [string, unknown][] = [
  ['string', 'fuzz'],
  ['string', ''],
  ['string', '12'],
  ['string', 'true'],
  ['number', 1.5],
  ['integer', -7],
  ['integer', 0],
  ['boolean', false],
  ['null', null],
  ['array', []],
  ['array', ['a', 1]],
  ['object', {}],
  ['object', { a: { b: 1 } }],
];

function wrongTyped(schema: JsonSchema): unknown[] {
  const types = typesOf(schema);
  if (types.size === 0) return [];
  return WRONG_TYPED.filter(([type]) => {
    if (type === 'integer') return !types.has('integer') && !types.has('number');
    if (type === 'number') return !types.has('number');
    return !types.has(type);
  }).map(([, value]) => value);
}

function hasWrongType(schema: JsonSchema): boolean {
  return wrongTyped(schema).length > 0;
}

function wrongTypeValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.constantFrom(...wrongTyped(schema));
}

function outOfRange(schema: JsonSchema): unknown {
  if (schema.maxLength !== undefined) return 'Z'.repeat(schema.maxLength + 1);
  if (schema.minLength !== undefined && schema.minLength > 0) return '';
  if (schema.maximum !== undefined) return schema.maximum + (allows(schema, 'integer') && !allows(schema, 'number') ? 1 : 0.5);
  if (schema.exclusiveMaximum !== undefined) return schema.exclusiveMaximum;
  if (schema.minimum !== undefined) return schema.minimum - 1;
  if (schema.exclusiveMinimum !== undefined) return schema.exclusiveMinimum;
  if (schema.maxItems !== undefined) return Array.from({ length: schema.maxItems + 1 }, () => plausible(schema.items ?? {}));
  if ((schema.minItems ?? 0) > 0) return [];
  return 'not-one-of-the-allowed-values';
}

function hugeWrongValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.integer({ min: 1_000, max: 20_000 }).map((count) => {
    if (!allows(schema, 'array')) return Array.from({ length: count }, (_, i) => i);
    if (schema.maxItems !== undefined) return Array.from({ length: schema.maxItems + count }, () => plausible(schema.items ?? {}));
    const items = arrayVariant(schema)?.items ?? {};
    const wrong = allows(items, 'object') ? 7 : { not: 'an item' };
    return Array.from({ length: count }, () => wrong);
  });
}

function deepValue(): fc.Arbitrary<unknown> {
  return fc.tuple(fc.integer({ min: 20, max: 4_000 }), fc.boolean()).map(([depth, arrays]) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i += 1) value = arrays ? [value] : { a: value };
    return value;
  });
}

function invalidUtf8String(): fc.Arbitrary<Buffer> {
  return fc
    .constantFrom([0xc3, 0x28], [0xff], [0xfe, 0xff], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80])
    .map((bytes) => Buffer.concat([Buffer.from('"AB'), Buffer.from(bytes), Buffer.from('CD"')]));
}

function loneSurrogateString(): fc.Arbitrary<string> {
  return fc.constantFrom('"\\ud800"', '"AB\\udc00CD"', '"\\udbff"', '"\\ude00\\ud800"', '"x\\uD83D"');
}

function malformedJson(operation: Operation): fc.Arbitrary<string> {
  const good = JSON.stringify(goodBody(operation) ?? {});
  return fc.constantFrom(
    good.slice(0, Math.max(1, good.length - 1)),
    `${good}}`,
    `${good} trailing`,
    "{'a': 1}",
    '{"a": NaN}',
    '{"a": Infinity}',
    '{"a": 01}',
    '{"__proto__": {"admin": true}}',
    '{"constructor": {"prototype": {"admin": true}}}',
    '[',
    'undefined',
    '{"a":1,}',
    '{"a" 1}',
    '"\\x41"',
  );
}

function badPathValue(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('not-a-uuid', '0', '-1', '1e309', 'null', '%zz', '%C3%28', '%ED%A0%80', '..%2F..%2Fetc', '%00', 'x'.repeat(600), '00000000-0000-0000-0000-00000000000g', '%20'),
    // Not digits alone: those may name a row that exists (strategy ids are integers).
    fc.string({ maxLength: 40 }).filter((text) => !/^\d+$/.test(text)).map((text) => encodeURIComponent(text) || '%2F'),
  );
}

function badQueryValue(schema: JsonSchema): fc.Arbitrary<string> {
  const numeric = allows(schema, 'number');
  return fc.constantFrom(
    ...(numeric ? ['abc', '0x10', '1e309', '-1e309', 'NaN', 'Infinity', '1.5e3x', '%20', '99999999999999999999', String(outOfRange(schema))] : []),
    ...(schema.enum ? ['not-a-member', encodeURIComponent(String(schema.enum[0]).toUpperCase() + 'X'), ''] : []),
    ...(allows(schema, 'boolean') ? ['maybe', '2', 'yes'] : []),
    ...(numeric || schema.enum || allows(schema, 'boolean') ? ['%C3%28'] : ['x'.repeat(10)]),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Noise: headers and unknown query keys that must neither help nor break a request

function noiseArbitrary(): fc.Arbitrary<Record<string, string>> {
  return fc
    .subarray([
      ['accept', 'text/html;q=0.1, */*;q=0.01'],
      ['accept-encoding', 'gzip, br, zstd, identity;q=0'],
      ['accept-language', 'xx-ZZ, *;q=0.2'],
      ['x-forwarded-for', '1.2.3.4, 5.6.7.8'],
      ['x-fuzz', '\u00e9t\u00e9 \u00ff'],
      ['if-none-match', '"abc", W/"def"'],
      ['range', 'bytes=0-1'],
      ['x-http-method-override', 'DELETE'],
    ] as const)
    .map((pairs) => Object.fromEntries(pairs));
}

// ---------------------------------------------------------------------------------------------------------
// Paths into a JSON value

function getAt(value: unknown, path: FieldPath): unknown {
  let current = value;
  for (const key of path) current = (current as Record<string | number, unknown> | undefined)?.[key];
  return current;
}

function setAt(value: unknown, path: FieldPath, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const root = (value && typeof value === 'object' ? value : {}) as Record<string | number, unknown>;
  let current = root;
  for (const [index, key] of path.entries()) {
    if (index === path.length - 1) {
      current[key] = replacement;
      break;
    }
    const next = current[key];
    if (!next || typeof next !== 'object') current[key] = typeof path[index + 1] === 'number' ? [] : {};
    current = current[key] as Record<string | number, unknown>;
  }
  return root;
}

function deleteAt(value: unknown, path: FieldPath): unknown {
  const parent = getAt(value, path.slice(0, -1));
  if (parent && typeof parent === 'object') delete (parent as Record<string | number, unknown>)[path.at(-1)!];
  return value;
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
