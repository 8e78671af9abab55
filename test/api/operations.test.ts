import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, allScopes, createApiClient } from '../../src/api/index.js';

const OPENAPI = fileURLToPath(new URL('../../../shared/api/paxos-v2.openapi.json', import.meta.url));
const OLDER_SPEC_ONLY = new Set(['RetryIdVerification', 'SetVerifierCredentials']);
const BOT_EXTRAS = ['GetOrder', 'CancelOrder', 'ListProfileOrders', 'ListProfileExecutions', 'GetIdentity', 'GetAccount', 'GetProfileBalance', 'ListMarkets', 'DeleteAccountMember', 'DeleteInstitutionMember'];

const camel = (id: string): string => id[0]!.toLowerCase() + id.slice(1);
const normalise = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

describe('the operations table', () => {
  it('holds the 64 platform-spec operations, the ten a bot needs and the 22 other operations of the OpenAPI file, each once', () => {
    const ids = OPERATIONS.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(96);
    for (const id of BOT_EXTRAS) expect(ids).toContain(id);
    expect(OPERATIONS.filter((o) => o.legacy).map((o) => o.id).sort()).toEqual([...OLDER_SPEC_ONLY].sort());
  });

  it('gives every operation a typed method named after it', () => {
    const client = createApiClient({ apiUrl: 'http://127.0.0.1:9/v2' }) as unknown as Record<string, unknown>;
    for (const op of OPERATIONS) expect(typeof client[camel(op.id)], op.id).toBe('function');
    void (client as unknown as { close(): Promise<void> }).close();
  });

  it('describes writes with ref_id lookups that exist and filter by ref_id', () => {
    for (const op of OPERATIONS) {
      if (op.refId?.lookup.kind !== 'list') continue;
      const list = OPERATIONS.find((o) => o.id === (op.refId!.lookup as { operation: string }).operation);
      expect(list, op.id).toBeDefined();
      expect(Object.keys(list!.query), op.id).toContain(op.refId.lookup.filter);
    }
    expect(OPERATIONS.find((o) => o.id === 'CreateOrder')!.refId!.lookup).toMatchObject({ operation: 'ListOrders', filter: 'ref_ids' });
    expect(OPERATIONS.find((o) => o.id === 'CreateInternalTransfer')!.refId!.lookup).toMatchObject({ operation: 'ListTransfers', filter: 'ref_ids' });
    expect(OPERATIONS.find((o) => o.id === 'CreateQuoteExecution')!.refId!.lookup.kind).toBe('resend');
  });

  it('marks exactly the six public market-data operations as needing no token', () => {
    expect(OPERATIONS.filter((o) => o.scope === undefined).map((o) => o.id).sort()).toEqual(
      ['GetOrderBook', 'GetTicker', 'ListMarkets', 'ListPrices', 'ListRecentExecutions', 'ListTickers'],
    );
    expect(allScopes()).toContain('exchange:historical_prices');
  });

  it.skipIf(!existsSync(OPENAPI))('matches the OpenAPI file: method, path template, scope and query names of every operation', () => {
    type Param = { $ref?: string; in?: string; name?: string };
    const spec = JSON.parse(readFileSync(OPENAPI, 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string; security?: Record<string, string[]>[]; parameters?: Param[] }>>;
      components?: { parameters?: Record<string, Param> };
    };
    const resolve = (p: Param): Param => (p.$ref ? (spec.components?.parameters?.[p.$ref.split('/').pop()!] ?? {}) : p);
    const found = new Map<string, { method: string; path: string; scope: string | undefined; query: string[] }>();
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op?.operationId) continue;
        const query = (op.parameters ?? []).map(resolve).filter((p) => p.in === 'query').map((p) => p.name!).sort();
        found.set(op.operationId, { method: method.toUpperCase(), path: normalise(path), scope: op.security?.flatMap((s) => Object.values(s).flat())[0], query });
      }
    }
    for (const op of OPERATIONS) {
      if (OLDER_SPEC_ONLY.has(op.id)) {
        expect(found.has(op.id), `${op.id} should be absent from the current spec`).toBe(false);
        continue;
      }
      const ref = found.get(op.id);
      expect(ref, `${op.id} missing from the OpenAPI file`).toBeDefined();
      expect(`${op.method} ${normalise(op.path)}`, op.id).toBe(`${ref!.method} ${ref!.path}`);
      expect(op.scope, op.id).toBe(ref!.scope);
      expect(Object.keys(op.query).sort(), `${op.id} query parameters`).toEqual(ref!.query);
    }
  });
});
