import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/** The public OpenAPI file beside the project (`../shared`); tests skip when it is absent. */
export const SPEC_FILE = fileURLToPath(new URL('../../../shared/api/paxos-v2.openapi.json', import.meta.url));
export const HAVE_SPEC = existsSync(SPEC_FILE);
export const SKIP_REASON = `skipped: ${SPEC_FILE} is absent (the OpenAPI file lives in ../shared beside the project)`;

type Schema = Record<string, unknown>;
interface SpecOperation {
  readonly operationId?: string;
  readonly requestBody?: { content: Record<string, { schema?: Schema }> };
  readonly responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
export interface OpenApiSpec {
  readonly paths: Record<string, Record<string, SpecOperation>>;
  readonly components: { schemas: Record<string, Schema>; examples?: Record<string, { value?: unknown }> };
}

/** One operation of the spec: method, path (relative to the `/v2` base), its request and 200 schemas. */
export interface SpecOp {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly requestSchema: Schema | undefined;
  readonly responseSchema: Schema | undefined;
}

export function loadSpec(): OpenApiSpec {
  return JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as OpenApiSpec;
}

export function specOperations(spec: OpenApiSpec): SpecOp[] {
  const out: SpecOp[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'delete'].includes(method) || op.operationId === undefined) continue;
      out.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        requestSchema: op.requestBody?.content['application/json']?.schema,
        responseSchema: op.responses['200']?.content?.['application/json']?.schema,
      });
    }
  }
  return out;
}

/** Problem types of the spec's catalog: `about:blank` and the slugs its examples use. */
export function problemCatalog(spec: OpenApiSpec): Set<string> {
  const types = new Set<string>(['about:blank']);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === 'type' && typeof v === 'string' && v.includes('/problems/'))
          types.add(v.slice(v.lastIndexOf('/problems/') + '/problems/'.length));
        else visit(v);
      }
    }
  };
  visit(spec);
  return types;
}

/** The slug of a problem `type` (`about:blank` stays as it is). */
export function problemSlug(type: unknown): string {
  const t = String(type);
  return t.includes('/problems/') ? t.slice(t.lastIndexOf('/problems/') + '/problems/'.length) : t;
}

/** ajv over the spec's components (OpenAPI 3.0 bounds made draft 7). */
export function specAjv(spec: OpenApiSpec): {
  ajv: Ajv;
  validator: (schema: Schema) => ValidateFunction;
  component: (name: string) => ValidateFunction;
} {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  (addFormats as unknown as (a: Ajv, f: string[]) => void)(ajv, ['date-time', 'uri']);
  for (const f of ['int64', 'int32', 'uint64', 'double', 'float', 'byte']) ajv.addFormat(f, true);
  ajv.addSchema({ $id: 'spec', components: draft7(spec.components) });
  const refd = (schema: Schema): Schema =>
    JSON.parse(JSON.stringify(draft7(schema)).replace(/"#\/components\//g, '"spec#/components/')) as Schema;
  return {
    ajv,
    validator: (schema) => ajv.compile(refd(schema)),
    component: (name) => ajv.compile({ $ref: `spec#/components/schemas/${name}` }),
  };
}

/** OpenAPI 3.0 writes exclusive bounds as booleans (draft 4); ajv speaks draft 7. Also drops undeclared `required` names. */
export function draft7(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(draft7);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = draft7(v);
  // a `required` name the object does not declare is a defect of the spec (ListProfileBalancesResponse
  // requires `balances` but declares, and every example sends, `items`): such names are dropped
  if (
    Array.isArray(out.required) &&
    out.properties !== null &&
    typeof out.properties === 'object' &&
    out.additionalProperties === undefined
  ) {
    const declared = Object.keys(out.properties);
    out.required = (out.required as string[]).filter((r) => declared.includes(r));
  }
  for (const [flag, bound] of [
    ['exclusiveMaximum', 'maximum'],
    ['exclusiveMinimum', 'minimum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  return out;
}

function resolve(spec: OpenApiSpec, s: Schema): Schema {
  let cur = s;
  for (let i = 0; i < 20 && typeof cur.$ref === 'string'; i++) cur = spec.components.schemas[cur.$ref.split('/').pop()!] ?? {};
  return cur;
}

/** The properties of an object schema, with those of its allOf/oneOf/anyOf parts. */
function propertiesOf(spec: OpenApiSpec, s: Schema): Record<string, Schema> {
  const r = resolve(spec, s);
  const parts = [
    r,
    ...(['allOf', 'oneOf', 'anyOf'] as const).flatMap((k) => ((r[k] as Schema[] | undefined) ?? []).map((p) => resolve(spec, p))),
  ];
  return Object.assign({}, ...parts.map((p) => (p.properties as Record<string, Schema> | undefined) ?? {})) as Record<string, Schema>;
}

/**
 * Every field a request schema declares, as paths (`account.type`, `members[].roles`), each with
 * a body that carries only that field (and its parents) with a plausible value.
 */
export function declaredFields(spec: OpenApiSpec, schema: Schema): { path: string; body: Record<string, unknown> }[] {
  const out: { path: string; body: Record<string, unknown> }[] = [];
  const walk = (s: Schema, prefix: string, wrap: (v: Record<string, unknown>) => Record<string, unknown>, depth: number): void => {
    if (depth > 5) return;
    for (const [name, prop] of Object.entries(propertiesOf(spec, s))) {
      const p = resolve(spec, prop);
      out.push({ path: prefix + name, body: wrap({ [name]: sample(spec, p, name) }) });
      if (p.type === 'array' && p.items !== undefined && Object.keys(propertiesOf(spec, p.items as Schema)).length > 0) {
        walk(p.items as Schema, `${prefix}${name}[].`, (v) => wrap({ [name]: [v] }), depth + 1);
      } else if (Object.keys(propertiesOf(spec, p)).length > 0) {
        walk(p, `${prefix}${name}.`, (v) => wrap({ [name]: v }), depth + 1);
      }
    }
  };
  walk(schema, '', (v) => v, 0);
  return out;
}

/** A plausible value of a schema: its example, first enum value, a date, a small number or text. */
export function sample(spec: OpenApiSpec, s: Schema, name = ''): unknown {
  const r = resolve(spec, s);
  if (Array.isArray(r.enum)) return r.enum[0];
  if (r.example !== undefined && typeof r.example !== 'object') return r.example;
  switch (r.type) {
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return 1;
    case 'array':
      return r.items === undefined ? [] : [sample(spec, r.items as Schema, name)];
    case 'string':
      if (r.format === 'date-time') return '2025-03-04T10:00:00Z';
      return /amount|price|total|ownership/.test(name) ? '1' : 'x';
    default:
      return Object.keys(propertiesOf(spec, r)).length > 0 || r.type === 'object' ? {} : 'x';
  }
}
