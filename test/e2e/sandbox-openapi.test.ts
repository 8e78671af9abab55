import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/sandbox/index.js';
import { type TestSandbox, startTestSandbox } from '../support/sandbox-fixture.js';
import { type RawResponse, type WireJson } from '../support/sandbox-http.js';
import { COUNTERPARTY, exercisePlatform } from '../support/sandbox-openapi-platform.js';

const SPEC_FILE = fileURLToPath(new URL('../../../shared/api/paxos-v2.openapi.json', import.meta.url));
const HAVE_SPEC = existsSync(SPEC_FILE);

type Spec = { paths: Record<string, Record<string, { operationId?: string; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>; components: object };

/** Operations whose body follows the platform spec's example shape rather than the schema: item schema to check instead. */
const ITEM_CHECKS: Readonly<Record<string, { key: string | null; schema: string }>> = {
  ListTickers: { key: null, schema: 'TickerRecord' },
  ListPrices: { key: 'prices', schema: 'Pricing' },
  ListHistoricalPrices: { key: 'prices', schema: 'HistoricalPrice' },
  // The schema's `required: ["balances"]` names a field that does not exist (the property is `items`).
  ListProfileBalances: { key: 'items', schema: 'ProfileBalance' },
};

describe.skipIf(!HAVE_SPEC)('sandbox responses against the OpenAPI spec', () => {
  let sb: TestSandbox;
  let ajv: Ajv;
  let spec: Spec;
  const bodies = new Map<string, unknown>();

  let specOps: Set<string>;
  const inSpec = (): string[] => ROUTES.map((r) => r.operation).filter((o) => specOps.has(o));

  beforeAll(async () => {
    spec = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as Spec;
    specOps = new Set(Object.values(spec.paths).flatMap((item) => Object.values(item).map((op) => op.operationId ?? '')));
    ajv = new Ajv({ strict: false, allErrors: true });
    const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
    (addFormats as unknown as (a: Ajv, f: string[]) => void)(ajv, ['date-time', 'uri']);
    for (const f of ['int64', 'int32', 'uint64', 'double', 'float', 'byte']) ajv.addFormat(f, true);
    ajv.addSchema({ $id: 'spec', components: draft7(spec.components) });
    sb = await startTestSandbox({ clients: [{ clientId: 'tradeloop-local', clientSecret: 'tradeloop-local-secret' }, COUNTERPARTY], sim: { platform: { documents: true } } });
    await exercise(sb, bodies);
    await exercisePlatform(sb, bodies);
  });
  afterAll(() => sb?.close());

  const schemaFor = (operationId: string): unknown => {
    for (const item of Object.values(spec.paths)) {
      for (const op of Object.values(item)) {
        if (op.operationId === operationId) return op.responses['200']?.content?.['application/json']?.schema;
      }
    }
    throw new Error(`operation ${operationId} not in the spec`);
  };
  const validator = (ref: unknown): ValidateFunction => ajv.compile({ $ref: `spec${String((ref as { $ref: string }).$ref)}` });
  const component = (name: string): ValidateFunction => ajv.compile({ $ref: `spec#/components/schemas/${name}` });

  it('exercises every implemented operation of the spec', () => {
    expect([...bodies.keys()].filter((o) => specOps.has(o)).sort()).toEqual(inSpec().sort());
    expect(inSpec().length).toBeGreaterThan(60);
  });

  it.each(ROUTES.map((r) => r.operation).filter((o) => !o.startsWith('Sandbox') || o === 'SandboxSetIdentityStatus').filter((o) => !['RetryIdVerification', 'SetVerifierCredentials'].includes(o)))('%s returns a body valid against its 200 schema', (operation) => {
    const body = bodies.get(operation);
    const items = ITEM_CHECKS[operation];
    if (items !== undefined) {
      const list = items.key === null ? body : (body as Record<string, unknown>)[items.key];
      expect(Array.isArray(list)).toBe(true);
      expect((list as unknown[]).length).toBeGreaterThan(0);
      const check = component(items.schema);
      for (const item of list as unknown[]) expect(check(item), JSON.stringify(check.errors)).toBe(true);
      return;
    }
    const check = validator(schemaFor(operation));
    expect(check(body), JSON.stringify(check.errors)).toBe(true);
  });

  it('sends problem bodies valid against the Problem schema', async () => {
    const token = await sb.http.token();
    const check = component('Problem');
    const responses: RawResponse[] = [
      await sb.http.get('/v2/profiles'),
      await sb.http.post('/v2/profiles/default/orders', { side: 'SELL', market: 'BTCUSD', type: 'MARKET', base_amount: '100' }, token),
      await sb.http.get('/v2/profiles/nope', token),
      await sb.http.post('/v2/profiles/default/orders', { side: 'BUY' }, token),
    ];
    expect(responses.map((r) => r.status)).toEqual([401, 403, 404, 400]);
    for (const r of responses) expect(check(r.body), JSON.stringify(check.errors)).toBe(true);
  });
});

/** OpenAPI 3.0 writes exclusive bounds as booleans (draft 4); ajv speaks draft 7. */
function draft7(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(draft7);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = draft7(v);
  for (const [flag, bound] of [['exclusiveMaximum', 'maximum'], ['exclusiveMinimum', 'minimum']] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  return out;
}

/** Calls every operation once with valid input, keeping each 200 body by operationId. */
async function exercise(sb: TestSandbox, bodies: Map<string, unknown>): Promise<void> {
  const token = await sb.http.token();
  const ok = async (op: string, res: Promise<RawResponse>): Promise<WireJson> => {
    const r = await res;
    if (r.status !== 200) throw new Error(`${op}: ${r.status} ${JSON.stringify(r.body)}`);
    bodies.set(op, r.body);
    return r.body;
  };
  const h = sb.http;
  await ok('ListMarkets', h.get('/v2/markets'));
  await ok('GetOrderBook', h.get('/v2/markets/BTCUSD/order-book'));
  await ok('GetTicker', h.get('/v2/markets/BTCUSD/ticker'));
  await ok('ListTickers', h.get('/v2/all-markets/ticker'));
  await ok('ListPrices', h.get('/v2/all-markets/prices?markets=BTCUSD&markets=ETHUSD'));
  await ok('ListHistoricalPrices', h.get('/v2/markets/ETHUSD/historical-prices?increment=ONE_HOUR&range.begin=2025-03-01T00:00:00Z&range.end=2025-03-02T00:00:00Z', token));
  const profile = await ok('CreateProfile', h.post('/v2/profiles', { nickname: 'schema-bot', description: 'checks' }, token));
  await ok('UpdateProfile', h.put(`/v2/profiles/${profile.id}`, { nickname: 'schema-bot-2' }, token));
  await ok('GetProfile', h.get(`/v2/profiles/${profile.id}`, token));
  await ok('ListProfiles', h.get('/v2/profiles', token));
  await ok('CreateSandboxDeposit', h.post('/v2/sandbox/profiles/default/deposit', { asset: 'BTC', amount: '1', crypto_network: 'BITCOIN' }, token));
  await ok('ListProfileBalances', h.get('/v2/profiles/default/balances', token));
  await ok('GetProfileBalance', h.get('/v2/profiles/default/balances/BTC', token));
  await ok('DeactivateProfile', h.put(`/v2/profiles/${profile.id}/deactivate`, undefined, token));
  await ok('CreateOrder', h.post('/v2/profiles/default/orders', { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '500', ref_id: 's-1', metadata: { k: 'v' } }, token));
  const resting = await h.post('/v2/profiles/default/orders', { side: 'SELL', market: 'BTCUSD', type: 'STOP_LIMIT', base_amount: '0.1', stop_price: '50000', price: '49900', time_in_force: 'GTT', expiration_date: String(sb.clock.now() + 3_600_000) }, token);
  await ok('GetOrder', h.get(`/v2/profiles/default/orders/${resting.body.id}`, token));
  await ok('CancelOrder', h.del(`/v2/profiles/default/orders/${resting.body.id}`, token));
  await ok('ListOrders', h.get('/v2/orders?limit=5', token));
  await ok('ListProfileOrders', h.get('/v2/profiles/default/orders', token));
  await ok('ListExecutions', h.get('/v2/executions', token));
  await ok('ListProfileExecutions', h.get('/v2/profiles/default/executions', token));
  await ok('ListRecentExecutions', h.get('/v2/markets/BTCUSD/recent-executions'));
  const quotes = await ok('ListQuotes', h.get('/v2/quotes?markets=BTCUSD&markets=ETHEUR', token));
  const qe = await ok('CreateQuoteExecution', h.post('/v2/profiles/default/quote-executions', { quote_id: quotes.items[0].id, quote_amount: '100.00', ref_id: 'qe-s1', metadata: { user: 'u' } }, token));
  sb.advance(1000);
  await ok('GetQuoteExecution', h.get(`/v2/profiles/default/quote-executions/${qe.id}`, token));
  await ok('ListQuoteExecutions', h.get('/v2/profiles/default/quote-executions?status=SETTLED', token));
  const bot = await h.post('/v2/profiles', { nickname: 'schema-transfers' }, token);
  const debit = await ok('CreateInternalTransfer', h.post('/v2/transfer/internal', { from_profile_id: 'default', to_profile_id: bot.body.id, asset: 'USD', amount: '25', ref_id: 'it-s1', recipient_metadata: { from: 'default' } }, token));
  await ok('GetTransfer', h.get(`/v2/transfer/transfers/${debit.id}`, token));
  await ok('ListTransfers', h.get('/v2/transfer/transfers?limit=3', token));
  await ok('ListTransferLimits', h.get('/v2/transfer/limits/utilizations?transfer_type=INTERNAL_TRANSFER_DEBIT', token));
}
