import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type OpenApiSpec,
  type SpecOp,
  HAVE_SPEC,
  SKIP_REASON,
  loadSpec,
  problemCatalog,
  problemSlug,
  specAjv,
  specOperations,
} from '../contract/openapi-spec.js';
import { type TestSandbox, startTestSandbox } from '../support/sandbox-fixture.js';
import { type RawResponse } from '../support/sandbox-http.js';
import { COUNTERPARTY, exerciseBeyond, exercisePlatform, exerciseTrading } from '../support/sandbox-openapi-platform.js';

if (!HAVE_SPEC) console.log(`sandbox-generated-client: ${SKIP_REASON}`);

interface Answer {
  readonly op: SpecOp;
  readonly status: number;
  readonly contentType: string;
  readonly body: unknown;
}

/**
 * Done-when test of wire fidelity: a client generated at test time from the public OpenAPI file
 * (openapi-typescript types, openapi-fetch calls, in a temporary folder; nothing generated is kept)
 * calls every operation of the spec on the sandbox with `--shapes schema`. Every 2xx must decode to
 * the operation's 200 schema and every error must be a problem+json whose type is in the spec's
 * catalog. The sandbox runs on a free loopback port with a test clock (deterministic).
 */
describe.skipIf(!HAVE_SPEC)('a client generated from the OpenAPI file against the sandbox (--shapes schema)', () => {
  let dir: string;
  let spec: OpenApiSpec;
  let ops: SpecOp[];
  let generated: string;
  let sb: TestSandbox;
  const answers: Answer[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-generated-client-'));
    spec = loadSpec();
    ops = specOperations(spec);
    generated = astToString(await openapiTS(spec as unknown as Parameters<typeof openapiTS>[0]));
    writeFileSync(join(dir, 'paxos.d.ts'), generated);
    sb = await startTestSandbox({
      shapes: 'schema',
      clients: [{ clientId: 'tradeloop-local', clientSecret: 'tradeloop-local-secret' }, COUNTERPARTY],
      sim: { platform: { documents: true } },
    });
    routeThroughGeneratedClient(sb, ops, answers);
    const bodies = new Map<string, unknown>();
    await exerciseTrading(sb, bodies);
    await exercisePlatform(sb, bodies);
    await exerciseBeyond(sb, bodies, new Map());
  }, 60_000);
  afterAll(async () => {
    await sb?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('generates the client: types for every operation of the spec, and typed calls that compile against them', () => {
    for (const op of ops) expect(generated, op.id).toContain(`${op.id}: {`);
    writeFileSync(join(dir, 'calls.ts'), TYPED_CALLS);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          skipLibCheck: true,
          types: [],
          typeRoots: [],
          baseUrl: '.',
          paths: { 'openapi-fetch': [OPENAPI_FETCH_TYPES] },
        },
        files: ['calls.ts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('calls every operation of the spec through the generated client', () => {
    const called = new Set(answers.map((a) => a.op.id));
    expect(ops.filter((o) => !called.has(o.id)).map((o) => o.id)).toEqual([]);
  });

  it("finds every 2xx answer decoding to the operation's 200 schema", () => {
    const { validator } = specAjv(spec);
    const failures: string[] = [];
    const ok = answers.filter((a) => a.status >= 200 && a.status < 300);
    for (const a of ok) {
      if (a.op.responseSchema === undefined) continue;
      const check = validator(a.op.responseSchema);
      if (!check(a.body)) failures.push(`${a.op.id}: ${JSON.stringify(check.errors?.slice(0, 2))}`);
    }
    expect(failures).toEqual([]);
    expect(new Set(ok.map((a) => a.op.id)).size).toBeGreaterThan(80);
    // a list under another key would pass the schema (no required keys) yet leave the client an empty list
    const items = (id: string, key: string): number =>
      ((ok.find((a) => a.op.id === id)?.body as Record<string, unknown[]> | undefined)?.[key] ?? []).length;
    expect(
      [items('ListTickers', 'tickers'), items('ListPrices', 'items'), items('ListHistoricalPrices', 'items')].every((n) => n > 0),
    ).toBe(true);
  });

  it("finds every error a problem+json whose type is in the spec's catalog", () => {
    const catalog = problemCatalog(spec);
    const problemSchema = specAjv(spec).component('Problem');
    const errors = answers.filter((a) => a.status >= 400);
    expect(errors.length).toBeGreaterThanOrEqual(10);
    for (const a of errors) {
      const where = `${a.op.id} ${a.status}`;
      expect(a.contentType, where).toContain('application/problem+json');
      expect(problemSchema(a.body), `${where}: ${JSON.stringify(problemSchema.errors)}`).toBe(true);
      expect(catalog.has(problemSlug((a.body as { type?: string }).type)), `${where}: ${JSON.stringify(a.body)}`).toBe(true);
    }
  });
});

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const OPENAPI_FETCH_TYPES = createRequire(import.meta.url)
  .resolve('openapi-fetch')
  .replace(/index\.(m?js|cjs)$/, 'index.d.ts');

/** Typed calls a user of the generated client writes: they must compile against the generated paths. */
const TYPED_CALLS = `
import createClient from 'openapi-fetch';
import type { paths } from './paxos.js';

export async function calls(baseUrl: string, token: string): Promise<number> {
  const client = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer ' + token } });
  const tickers = await client.GET('/all-markets/ticker');
  const prices = await client.GET('/all-markets/prices', { params: { query: { markets: ['BTCUSD', 'ETHUSD'] } } });
  const history = await client.GET('/markets/{market}/historical-prices', { params: { path: { market: 'ETHUSD' }, query: { increment: 'ONE_HOUR' } } });
  const events = await client.GET('/events', { params: { query: { limit: 10 } } });
  const book = await client.PUT('/transfer/crypto-destination-address', { body: { crypto_network: 'ETHEREUM', address: '0x1', nickname: 'cold' } });
  const deleted = await client.DELETE('/transfer/fiat-accounts/{id}', { params: { path: { id: 'x' } } });
  return (tickers.data?.tickers?.length ?? 0) + (prices.data?.items?.length ?? 0) + (history.data?.items?.length ?? 0)
    + (events.data?.events?.length ?? 0) + (book.data?.address?.id ? 1 : 0) + (deleted.error ? 0 : 1);
}
`;

/**
 * Sends every request of the exercise through a client made by openapi-fetch: the concrete path is
 * matched to the spec's path template, its segments and query become the client's `params`, and the
 * client builds the request and parses the answer. Each answer is kept with its operation.
 */
function routeThroughGeneratedClient(sb: TestSandbox, ops: readonly SpecOp[], answers: Answer[]): void {
  const client = createClient({ baseUrl: sb.handle.apiUrl });
  const original = sb.http.send.bind(sb.http);
  sb.http.send = async <T>(
    method: string,
    fullPath: string,
    opts: { token?: string | undefined; body?: string | undefined; contentType?: string },
  ): Promise<RawResponse<T>> => {
    const [pathname, search = ''] = fullPath.split('?') as [string, string?];
    const found = pathname.startsWith('/v2/') ? matchOperation(ops, method, pathname.slice(3)) : undefined;
    if (found === undefined) return original<T>(method, fullPath, opts);
    const query: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(search)) {
      const prev = query[k];
      query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    const headers: Record<string, string> = {};
    if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
    const { data, error, response } = await client.request(
      method.toLowerCase() as 'get',
      found.op.path as never,
      {
        params: { path: found.params, query },
        ...(opts.body !== undefined ? { body: JSON.parse(opts.body) as never } : {}),
        headers,
      } as never,
    );
    const body = (response.ok ? data : error) as T;
    const contentType = response.headers.get('content-type') ?? '';
    answers.push({ op: found.op, status: response.status, contentType, body });
    return { status: response.status, contentType, body } as RawResponse<T>;
  };
}

function matchOperation(ops: readonly SpecOp[], method: string, path: string): { op: SpecOp; params: Record<string, string> } | undefined {
  const parts = path.split('/').filter(Boolean);
  // literal segments beat templated ones (`/issuer-quotes` before `/issuer-quote/{quote_id}`)
  const candidates = ops
    .filter((o) => o.method === method)
    .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  for (const op of candidates) {
    const segs = op.path.split('/').filter(Boolean);
    if (segs.length !== parts.length) continue;
    const params: Record<string, string> = {};
    if (segs.every((s, i) => (s.startsWith('{') ? ((params[s.slice(1, -1)] = decodeURIComponent(parts[i]!)), true) : s === parts[i])))
      return { op, params };
  }
  return undefined;
}
