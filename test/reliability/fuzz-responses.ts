import { ApiError, MalformedResponseError } from '../../src/api/index.js';
import { mapHttpError } from '../../src/api/http/error-mapper.js';
import { isJson, readResponse } from '../../src/api/http/responses.js';
import { OPERATIONS } from '../../src/api/operations.js';
import type { OperationSpec } from '../../src/api/operation-spec.js';
import { Rng } from '../../src/core/index.js';
import { SecretSet } from '../../src/log/index.js';

/**
 * Seeded fuzzing of every response the client parses. For each operation (its documented shape and
 * the fields the client requires) it generates bodies that are certainly malformed — not JSON, cut
 * short, the wrong JSON type, a list that is not a list, a required field missing or mistyped — and
 * checks that each one ends in a MalformedResponseError (never another exception, never accepted).
 * Error bodies (any 4xx/5xx with any text) must map to an ApiError without throwing or leaking a
 * secret.
 */

/** Fields the client requires per operation (mirrors the client's contract; a drift fails the fuzz). */
const REQUIRED: Readonly<Record<string, { fields?: string[]; itemFields?: string[]; levels?: string[] }>> = {
  CreateOrder: { fields: ['id'] },
  GetOrder: { fields: ['id'] },
  ListOrders: { itemFields: ['id'] },
  ListProfileOrders: { itemFields: ['id'] },
  CreateQuoteExecution: { fields: ['id', 'status'] },
  GetQuoteExecution: { fields: ['id', 'status'] },
  ListQuotes: { itemFields: ['id', 'market', 'side', 'price', 'expires_at'] },
  GetOrderBook: { levels: ['bids', 'asks'] },
  ListProfileBalances: { itemFields: ['asset', 'available', 'trading'] },
  GetProfileBalance: { fields: ['asset', 'available', 'trading'] },
  CreateInternalTransfer: { fields: ['id'] },
  CreatePaxosTransfer: { fields: ['id'] },
  CreateFiatWithdrawal: { fields: ['id'] },
  CreateCryptoWithdrawal: { fields: ['id'] },
  GetTransfer: { fields: ['id'] },
  ListPrices: { itemFields: ['market', 'current_price'] },
  ListHistoricalPrices: { itemFields: ['average_price', 'timestamp'] },
};

const RECORD = {
  id: 'r-1',
  status: 'OPEN',
  asset: 'USD',
  available: '1',
  trading: '0',
  market: 'BTCUSD',
  side: 'BUY',
  price: '1.5',
  expires_at: '2025-01-01T00:00:00Z',
  current_price: '1',
  average_price: '1',
  timestamp: '2025-01-01T00:00:00Z',
  bids: [{ price: '1', amount: '1' }],
  asks: [{ price: '2', amount: '1' }],
};

function validBody(spec: OperationSpec): unknown {
  switch (spec.response) {
    case 'tickers':
      return [RECORD];
    case 'prices':
    case 'historical-prices':
      return { prices: [RECORD] };
    case 'page':
      return { items: [RECORD], next_page_cursor: 'c' };
    case 'items':
      return { items: [RECORD] };
    default:
      return RECORD;
  }
}

const NON_OBJECTS: readonly unknown[] = [0, -1.5, 1e308, 'text', '', true, false, null];
const listKey = (spec: OperationSpec): string | undefined =>
  (({ page: 'items', items: 'items', prices: 'prices', 'historical-prices': 'prices', tickers: 'tickers' }) as Record<string, string>)[
    spec.response
  ];

/** One certainly-malformed body for `spec`. */
export function malformedBody(spec: OperationSpec, rng: Rng): string {
  const valid = JSON.stringify(validBody(spec));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)] as T;
  const req = REQUIRED[spec.id];
  const kinds = [
    'garbage',
    'prefix',
    'flip',
    'top',
    ...(listKey(spec) ? ['list', 'item'] : []),
    ...(req ? ['required'] : []),
    ...(spec.response === 'page' ? ['cursor'] : []),
  ];
  for (;;) {
    const kind = pick(kinds);
    let text: string;
    if (kind === 'garbage') {
      text = Array.from({ length: 1 + Math.floor(rng.next() * 40) }, () => String.fromCharCode(33 + Math.floor(rng.next() * 94))).join('');
      if (isJson(text)) continue; // random characters can spell valid JSON ("{}", "42")
    } else if (kind === 'prefix') text = valid.slice(0, 1 + Math.floor(rng.next() * (valid.length - 1)));
    else if (kind === 'flip') {
      const i = Math.floor(rng.next() * valid.length);
      text = valid.slice(0, i) + pick(['{', '}', '"', ',', ':', ']', '\\', 'x']) + valid.slice(i + 1);
      if (isJson(text)) continue;
    } else if (kind === 'top')
      text = JSON.stringify(spec.response === 'tickers' ? pick(NON_OBJECTS) : pick([...NON_OBJECTS, [RECORD], []]));
    else if (kind === 'list') {
      const key = listKey(spec)!;
      text = JSON.stringify(
        spec.response === 'tickers'
          ? { tickers: pick([...NON_OBJECTS.filter((x) => x !== null), { a: 1 }]) }
          : { [key]: pick([...NON_OBJECTS.filter((x) => x !== null), { a: 1 }]) },
      );
    } else if (kind === 'item') {
      const key = listKey(spec)!;
      const bad = [RECORD, pick([...NON_OBJECTS, [1]])];
      text = JSON.stringify(spec.response === 'tickers' ? { tickers: bad } : { [key]: bad });
    } else if (kind === 'cursor') text = JSON.stringify({ items: [RECORD], next_page_cursor: pick([1, true, { a: 1 }, [1]]) });
    else text = JSON.stringify(breakRequired(spec, req!, rng, pick));
    if (text.trim() === '') continue;
    return text;
  }
}

function breakRequired(
  spec: OperationSpec,
  req: NonNullable<(typeof REQUIRED)[string]>,
  rng: Rng,
  pick: <T>(xs: readonly T[]) => T,
): unknown {
  const wrong = pick([undefined, 1, null, true, ['x'], { x: 1 }]);
  const record: Record<string, unknown> = { ...RECORD };
  if (req.levels) {
    const side = pick(req.levels);
    record[side] = rng.next() < 0.5 ? (wrong ?? 'none') : [{ price: 1, amount: '1' }];
    return record;
  }
  const field = pick(req.fields ?? req.itemFields ?? []);
  if (wrong === undefined) delete record[field];
  else record[field] = wrong;
  if (req.fields) return record;
  const key = listKey(spec) ?? 'items';
  return { [key]: [RECORD, record] };
}

export interface FuzzReport {
  readonly schemas: number;
  readonly bodies: number;
  readonly typedErrors: number;
  readonly failures: string[];
}

/** Fuzzes `perSchema` malformed 2xx bodies of every operation, and as many error bodies. */
export function fuzzResponses(perSchema: number, seed: number): FuzzReport {
  const rng = new Rng(seed).fork('fuzz');
  const failures: string[] = [];
  let typed = 0;
  let bodies = 0;
  for (const spec of OPERATIONS) {
    for (let i = 0; i < perSchema; i++) {
      const text = malformedBody(spec, rng);
      bodies++;
      try {
        readResponse(spec, text, undefined);
        failures.push(`${spec.id} accepted ${text.slice(0, 120)}`);
      } catch (e) {
        if (e instanceof MalformedResponseError) typed++;
        else failures.push(`${spec.id} threw ${(e as Error).name}: ${(e as Error).message} for ${text.slice(0, 120)}`);
      }
      if (failures.length > 20) return { schemas: OPERATIONS.length, bodies, typedErrors: typed, failures };
    }
  }
  return { schemas: OPERATIONS.length, bodies, typedErrors: typed, failures: [...failures, ...fuzzErrorBodies(perSchema, rng)] };
}

const CANARY = 'canary-SECRET-9f8e7d';

/** Error answers with arbitrary bodies: always an ApiError, never a throw, never the canary. */
function fuzzErrorBodies(n: number, rng: Rng): string[] {
  const secrets = new SecretSet();
  secrets.add(CANARY);
  const failures: string[] = [];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)] as T;
  for (let i = 0; i < n; i++) {
    const status = pick([400, 401, 403, 404, 405, 409, 418, 429, 500, 502, 503, 504]);
    const body = pick<unknown>([
      {
        type: pick([1, null, 'x/y/already-exists', CANARY]),
        title: pick([CANARY, 5, {}]),
        detail: `token ${CANARY} rejected`,
        meta: pick([null, 'x', { existing: CANARY }, [1]]),
      },
      `<html>${CANARY}</html>`,
      '',
      '{"title":',
      [CANARY],
      42,
      null,
    ]);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    try {
      const err = mapHttpError({
        operation: 'Fuzz',
        status,
        headers: { 'retry-after': pick(['1', 'soon', '-3', 'Wed, 21 Oct 2015 07:28:00 GMT', '']) },
        text,
        nowMs: 0,
        secrets,
      });
      if (!(err instanceof ApiError)) failures.push(`status ${status}: not an ApiError`);
      if (JSON.stringify(err.toJSON()).includes(CANARY) || err.message.includes(CANARY))
        failures.push(`status ${status}: the secret reached the error: ${err.message}`);
    } catch (e) {
      failures.push(`status ${status}: mapping threw ${(e as Error).message}`);
    }
  }
  return failures;
}
