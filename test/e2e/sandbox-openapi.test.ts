import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/sandbox/index.js';
import { Router } from '../../src/sandbox/router.js';
import {
  type OpenApiSpec,
  type SpecOp,
  HAVE_SPEC,
  SKIP_REASON,
  declaredFields,
  loadSpec,
  problemCatalog,
  problemSlug,
  specAjv,
  specOperations,
} from '../contract/openapi-spec.js';
import { type TestSandbox, startTestSandbox } from '../support/sandbox-fixture.js';
import { type RawResponse, type WireJson } from '../support/sandbox-http.js';
import { COUNTERPARTY, exerciseBeyond, exercisePlatform, exerciseTrading } from '../support/sandbox-openapi-platform.js';

if (!HAVE_SPEC) console.log(`sandbox-openapi: ${SKIP_REASON}`);

/** Sandbox-only helpers outside the public spec (document bytes, tax-form files) and older-spec operations. */
const NOT_IN_SPEC = [
  'SandboxDocumentBytes',
  'SandboxDocumentBytesPost',
  'SandboxTaxFormFile',
  'RetryIdVerification',
  'SetVerifierCredentials',
];

describe.skipIf(!HAVE_SPEC)('sandbox (--shapes schema) against the OpenAPI spec', () => {
  let sb: TestSandbox;
  let spec: OpenApiSpec;
  let ops: SpecOp[];
  let checks: ReturnType<typeof specAjv>;
  let catalog: Set<string>;
  let ids: Record<string, string>;
  const bodies = new Map<string, unknown>();
  const refusals = new Map<string, RawResponse>();
  const valid = new Map<string, Record<string, unknown>[]>();

  beforeAll(async () => {
    spec = loadSpec();
    ops = specOperations(spec);
    checks = specAjv(spec);
    catalog = problemCatalog(spec);
    sb = await startTestSandbox({
      shapes: 'schema',
      clients: [{ clientId: 'tradeloop-local', clientSecret: 'tradeloop-local-secret' }, COUNTERPARTY],
      sim: { platform: { documents: true } },
    });
    recordValidRequests(sb, valid);
    await exerciseTrading(sb, bodies);
    ids = await exercisePlatform(sb, bodies);
    await exerciseBeyond(sb, bodies, refusals);
  });
  afterAll(() => sb?.close());

  it('serves every operation of the spec, and nothing else but its sandbox helpers', () => {
    const served = ROUTES.map((r) => r.operation)
      .filter((o) => !NOT_IN_SPEC.includes(o))
      .sort();
    expect(served).toEqual(ops.map((o) => o.id).sort());
  });

  it('exercises every operation of the spec at least once', () => {
    const called = new Set([...bodies.keys(), ...refusals.keys()]);
    expect(ops.map((o) => o.id).filter((id) => !called.has(id))).toEqual([]);
  });

  it("answers every 2xx with a body valid against the operation's 200 schema (no per-item exceptions)", () => {
    const failures: string[] = [];
    for (const op of ops) {
      if (!bodies.has(op.id) || op.responseSchema === undefined) continue;
      const check = checks.validator(op.responseSchema);
      if (!check(bodies.get(op.id))) failures.push(`${op.id}: ${JSON.stringify(check.errors?.slice(0, 3))}`);
    }
    expect(failures).toEqual([]);
    expect(bodies.size).toBeGreaterThan(80);
  });

  it('refuses what it does not simulate with problems of the catalog: 403 feature not enabled, 404 unknown id', () => {
    const problemCheck = checks.component('Problem');
    for (const [op, r] of refusals) {
      expect(r.contentType, op).toContain('application/problem+json');
      expect(problemCheck(r.body), `${op}: ${JSON.stringify(problemCheck.errors)}`).toBe(true);
      expect(r.body.type, op).toBe('about:blank');
      if (r.status === 403) expect(r.body.detail, op).toMatch(/^feature not enabled/);
    }
    expect([...refusals.values()].map((r) => r.status).sort()).toEqual([403, 403, 403, 403, 403, 404, 404, 404, 404, 404]);
  });

  it("sends problem bodies valid against the Problem schema, with types from the spec's catalog", async () => {
    const token = await sb.http.token();
    const check = checks.component('Problem');
    const other = await sb.http.post('/v2/profiles', { nickname: 'schema-limits' }, token);
    const responses: RawResponse[] = [
      await sb.http.get('/v2/profiles'),
      await sb.http.post('/v2/profiles/default/orders', { side: 'SELL', market: 'BTCUSD', type: 'MARKET', base_amount: '100' }, token),
      await sb.http.get('/v2/profiles/nope', token),
      await sb.http.post('/v2/profiles/default/orders', { side: 'BUY' }, token),
      await sb.http.post(
        '/v2/transfer/internal',
        { from_profile_id: 'default', to_profile_id: other.body.id, asset: 'USD', amount: '1500000' },
        token,
      ),
      await sb.http.get('/v2/nothing-here', token),
    ];
    expect(responses.map((r) => r.status)).toEqual([401, 403, 404, 400, 403, 404]);
    for (const r of responses) {
      expect(check(r.body), JSON.stringify(check.errors)).toBe(true);
      expect(catalog.has(problemSlug(r.body.type)), String(r.body.type)).toBe(true);
    }
    expect(responses[4]!.body).toMatchObject({
      type: 'about:blank',
      title: 'Forbidden',
      meta: { transfer_type: 'INTERNAL_TRANSFER_DEBIT', amount: '1500000.00' },
    });
    expect(responses[5]!.body.detail).toBe('no operation at GET /v2/nothing-here: not an operation of the platform API v2');
  });

  it('refuses none of the fields a request schema declares as unknown or "not allowed here"', async () => {
    const token = await sb.http.token();
    const params: Record<string, string> = {
      profile_id: 'default',
      identity_id: ids.person!,
      transaction_id: ids.transaction!,
      quote_id: 'nope',
      client_id: 'nope',
      asset: 'BTC',
      market: 'BTCUSD',
    };
    const idFor: Record<string, string> = {
      UpdateIdentity: ids.person!,
      SandboxSetIdentityStatus: ids.person!,
      UpdateFiatAccount: ids.fiat!,
      RejectCryptoDeposit: ids.held!,
      UpdateCryptoDeposit: ids.held!,
    };
    // each field is added to a request the sandbox accepted (the one whose top-level keys include
    // the field's, e.g. an institution for institution_details.*), so no other check stands first
    const baseFor = (op: string, path: string): Record<string, unknown> => {
      const bases = valid.get(op) ?? [];
      const top = path.split(/[.[]/)[0]!;
      return bases.find((b) => top in b) ?? bases[0] ?? {};
    };
    // the check can fail: a field no schema declares is refused, naming it
    const bogus = await sb.http.post(
      '/v2/identity/identities',
      { ...baseFor('CreateIdentity', 'person_details'), no_such_field: 1 },
      token,
    );
    expect([bogus.status, bogus.body.detail]).toEqual([400, expect.stringMatching(/^no_such_field: not allowed here/)]);
    const refused: string[] = [];
    let sent = 0;
    for (const op of ops) {
      if (op.requestSchema === undefined) continue;
      const path =
        '/v2' +
        op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeURIComponent(name === 'id' ? (idFor[op.id] ?? 'nope') : (params[name] ?? 'nope')),
        );
      for (const field of declaredFields(spec, op.requestSchema)) {
        const body = merge(baseFor(op.id, field.path), field.body);
        const r = await sb.http.send(op.method, path, { token, body: JSON.stringify(body), contentType: 'application/json' });
        sent++;
        const detail = String((r.body as WireJson | undefined)?.detail ?? '');
        if (r.status >= 500 || /not allowed here|unknown field|unrecognized/i.test(detail))
          refused.push(`${op.id} ${field.path}: ${r.status} ${detail}`);
      }
    }
    expect(refused).toEqual([]);
    expect(sent).toBeGreaterThan(300);
  });
});

/** Keeps the JSON body of every request the sandbox answered 200, by operation (bases for the declared-fields check). */
function recordValidRequests(sb: TestSandbox, valid: Map<string, Record<string, unknown>[]>): void {
  const router = new Router(ROUTES);
  const send = sb.http.send.bind(sb.http);
  sb.http.send = async (method, path, opts) => {
    const r = await send(method, path, opts);
    if (r.status === 200 && opts.contentType === 'application/json' && opts.body !== undefined) {
      try {
        const op = router.match(method, path.split('?')[0]!).route.operation;
        valid.set(op, [...(valid.get(op) ?? []), JSON.parse(opts.body) as Record<string, unknown>]);
      } catch {
        // not an operation: nothing to keep
      }
    }
    return r;
  };
}

/** `extra` laid over `base`: objects merged key by key, the first item of arrays merged likewise. */
function merge(base: unknown, extra: unknown): Record<string, unknown> {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  const one = (b: unknown, e: unknown): unknown => {
    if (isObject(b) && isObject(e)) return merge(b, e);
    if (Array.isArray(b) && Array.isArray(e) && b.length > 0 && e.length > 0) return [one(b[0], e[0]), ...b.slice(1)];
    return e;
  };
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(extra as Record<string, unknown>)) out[k] = k in out ? one(out[k], v) : v;
  return out;
}
