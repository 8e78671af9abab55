import { MalformedResponseError } from '../errors.js';
import type { OperationSpec } from '../operation-spec.js';

type Json = Record<string, unknown>;

interface Required {
  /** String fields the record itself must carry. */
  readonly fields?: readonly string[];
  /** String fields every item of `items` must carry. */
  readonly itemFields?: readonly string[];
  /** Arrays of {price, amount} levels. */
  readonly levels?: readonly string[];
}

const TRADING_RECORD: Required = { fields: ['id'] };
const BALANCE = ['asset', 'available', 'trading'];

/**
 * Fields the rest of tradeloop relies on, per operation: a response without them is malformed
 * (raised here as a typed error) rather than an undefined deep inside a strategy or the journal.
 */
const REQUIRED: Readonly<Record<string, Required>> = {
  CreateOrder: TRADING_RECORD,
  GetOrder: TRADING_RECORD,
  ListOrders: { itemFields: ['id'] },
  ListProfileOrders: { itemFields: ['id'] },
  CreateQuoteExecution: { fields: ['id', 'status'] },
  GetQuoteExecution: { fields: ['id', 'status'] },
  ListQuotes: { itemFields: ['id', 'market', 'side', 'price', 'expires_at'] },
  GetOrderBook: { levels: ['bids', 'asks'] },
  ListProfileBalances: { itemFields: BALANCE },
  GetProfileBalance: { fields: BALANCE },
  CreateInternalTransfer: TRADING_RECORD,
  CreatePaxosTransfer: TRADING_RECORD,
  CreateFiatWithdrawal: TRADING_RECORD,
  CreateCryptoWithdrawal: TRADING_RECORD,
  GetTransfer: TRADING_RECORD,
  ListPrices: { itemFields: ['market', 'current_price'] },
  ListHistoricalPrices: { itemFields: ['average_price', 'timestamp'] },
};

/**
 * Lists of the operations beyond the platform spec keep their items under the resource's own key:
 * it must hold an array of objects, and an omitted (empty repeated) field becomes `[]`.
 */
const NAMED_LISTS: Readonly<Record<string, string>> = {
  ListEvents: 'events', ListCryptoDestinationAddresses: 'addresses', ListStatements: 'statements', ListPayments: 'payments',
  ListApiCredentials: 'items', ListOrchestrations: 'orchestrations', ListOrchestrationRules: 'rules', ListMonitoringAddress: 'addresses',
  ListIssuerQuoteExecutions: 'issuer_quote_executions',
};

/**
 * Parses a 2xx body and checks the shape the client relies on, normalising the responses that
 * come in two documented shapes: ListTickers (bare array or `{tickers}`) → array; ListPrices
 * (`prices` or `items`) and ListHistoricalPrices (`prices` or `items`) → `{items, …}`. Lists whose
 * `items` the server omitted (empty repeated field) get `items: []`.
 */
export function readResponse(spec: OperationSpec, text: string, requestId: string | undefined): unknown {
  const bad = (what: string): never => {
    throw new MalformedResponseError(`${spec.id}: malformed response body (${what})`, { operation: spec.id, requestId });
  };
  let value = readShape(spec, text, bad);
  const listKey = NAMED_LISTS[spec.id];
  if (listKey !== undefined) value = { ...(value as Json), [listKey]: itemsOf(value as Json, listKey, bad) };
  const required = REQUIRED[spec.id];
  if (required) checkRequired(value as Json, required, bad);
  return value;
}

function checkRequired(o: Json, r: Required, bad: (what: string) => never): void {
  for (const f of r.fields ?? []) if (typeof o[f] !== 'string') bad(`${f} is missing or not a string`);
  const items = (o.items ?? []) as Json[];
  for (const f of r.itemFields ?? []) {
    if (items.some((item) => typeof item[f] !== 'string')) bad(`an item's ${f} is missing or not a string`);
  }
  for (const side of r.levels ?? []) {
    const levels = o[side];
    if (!Array.isArray(levels)) bad(`${side} is not an array`);
    for (const l of levels as unknown[]) {
      const level = l as Json | null;
      if (!level || typeof level.price !== 'string' || typeof level.amount !== 'string') bad(`a ${side} level lacks price/amount strings`);
    }
  }
}

function readShape(spec: OperationSpec, text: string, bad: (what: string) => never): unknown {
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return bad('not JSON');
  }
  switch (spec.response) {
    case 'tickers':
      if (Array.isArray(body)) return body;
      return itemsOf(asObject(body, bad), 'tickers', bad);
    case 'prices': {
      const o = asObject(body, bad);
      return { ...o, items: itemsOf(o, o.prices !== undefined ? 'prices' : 'items', bad) };
    }
    case 'historical-prices': {
      const o = asObject(body, bad);
      const items = itemsOf(o, o.prices !== undefined ? 'prices' : 'items', bad);
      if (o.total_count !== undefined && typeof o.total_count !== 'number') bad('total_count is not a number');
      return { ...o, items };
    }
    case 'page': {
      const o = asObject(body, bad);
      if (o.next_page_cursor !== undefined && o.next_page_cursor !== null && typeof o.next_page_cursor !== 'string') bad('next_page_cursor is not a string');
      return { ...o, items: itemsOf(o, 'items', bad) };
    }
    case 'items': {
      const o = asObject(body, bad);
      return { ...o, items: itemsOf(o, 'items', bad) };
    }
    case 'object':
    case 'empty':
      return asObject(body, bad);
  }
}

function asObject(body: unknown, bad: (what: string) => never): Json {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return bad('expected a JSON object');
  return body as Json;
}

function itemsOf(o: Json, key: string, bad: (what: string) => never): Json[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return bad(`${key} is not an array`);
  for (const item of v) if (item === null || typeof item !== 'object' || Array.isArray(item)) bad(`${key} holds a non-object`);
  return v as Json[];
}

/** True when `text` parses as JSON (any value). */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
