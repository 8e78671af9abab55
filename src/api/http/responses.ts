import { MalformedResponseError } from '../errors.js';
import type { OperationSpec } from '../operation-spec.js';

type Json = Record<string, unknown>;

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
