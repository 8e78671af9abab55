import type { StreamKind } from '../../src/venue/index.js';

export const T0 = Date.UTC(2025, 4, 1, 12, 0, 0);
const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Venue records for the decoding tests (polling streams and RestVenue): one well-formed record of each
 * kind, as the platform sends it, and the cases that break one field of it.
 */
export const GOOD: Record<RecordKind, Record<string, unknown>> = {
  order: {
    id: 'o-1',
    ref_id: 'r-1',
    status: 'OPEN',
    side: 'SELL',
    market: 'BTCUSD',
    type: 'LIMIT',
    price: '61250.5',
    base_amount: '0.015',
    quote_amount: '',
    amount_filled: '0',
    volume_weighted_average_price: '0',
    created_at: iso(T0),
  },
  execution: {
    execution_id: '88123457',
    order_id: 'o-1',
    executed_at: iso(T0),
    market: 'BTCUSD',
    side: 'SELL',
    amount: '0.005',
    price: '61250.5',
    commission: '0.45',
    commission_asset: 'USD',
  },
  'quote execution': {
    id: 'qx-1',
    ref_id: 'r-2',
    profile_id: 'p',
    quote_id: 'q-1',
    status: 'CREATED',
    market: 'BTCUSD',
    side: 'SELL',
    price: '61000',
    base_amount: '0.01',
    base_asset: 'BTC',
    quote_amount: '610.00',
    quote_asset: 'USD',
    created_at: iso(T0),
  },
  balance: { asset: 'BTC', available: '1.5', trading: '0.015' },
  quote: {
    id: 'q-1',
    market: 'BTCUSD',
    side: 'SELL',
    price: '61000',
    base_asset: 'BTC',
    quote_asset: 'USD',
    created_at: iso(T0),
    expires_at: iso(T0 + 10_000),
  },
};

export type RecordKind = 'order' | 'execution' | 'quote execution' | 'balance' | 'quote';

/** Which stream carries each record kind, and the fields without which a record is refused. */
export const KINDS: ReadonlyArray<{ kind: RecordKind; stream: StreamKind; fields: readonly string[]; amounts: readonly string[] }> = [
  {
    kind: 'order',
    stream: 'open-orders',
    fields: ['id', 'market', 'side', 'status', 'type', 'amount_filled', 'price'],
    amounts: ['amount_filled', 'price'],
  },
  {
    kind: 'execution',
    stream: 'fills',
    fields: ['execution_id', 'order_id', 'executed_at', 'market', 'side', 'amount', 'price', 'commission', 'commission_asset'],
    amounts: ['amount', 'price', 'commission'],
  },
  {
    kind: 'quote execution',
    stream: 'quote-executions',
    fields: ['id', 'quote_id', 'market', 'side', 'status', 'price', 'base_amount', 'quote_amount'],
    amounts: ['price', 'base_amount', 'quote_amount'],
  },
  { kind: 'balance', stream: 'balances', fields: ['asset', 'available', 'trading'], amounts: ['available', 'trading'] },
  { kind: 'quote', stream: 'quotes', fields: ['id', 'market', 'side', 'price', 'expires_at'], amounts: ['price'] },
];

/** Every case: a record of each kind with one field missing, and each amount sent as "" (the wire's "not set"). */
export const CASES = KINDS.flatMap((k) => [
  ...k.fields.map((field) => ({ ...k, field, how: 'missing', record: without(GOOD[k.kind], field) })),
  ...k.amounts.map((field) => ({ ...k, field, how: 'empty', record: { ...GOOD[k.kind], [field]: '' } })),
]);

function without(record: Record<string, unknown>, field: string): Record<string, unknown> {
  const copy = { ...record };
  delete copy[field];
  return copy;
}

/** The good record a stream's answer carries. */
export function goodFor(stream: StreamKind): Record<string, unknown> {
  return GOOD[KINDS.find((k) => k.stream === stream)?.kind ?? 'order'];
}
