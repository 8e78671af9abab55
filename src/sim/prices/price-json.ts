/**
 * The JSON reader of price files: List Historical Prices' shape (`{prices: [...]}`, `{items: [...]}` or a
 * bare array of `{average_price, timestamp}`), checked item by item with every problem named.
 */
import { clip, NUMBER, Problems, type PriceSeries } from './price-data.js';
import { describeBadTime, parseRfc3339At } from './price-time.js';

/** Parses List Historical Prices JSON: `{prices: [...]}`, `{items: [...]}` or a bare array of points. */
export function parsePriceJson(text: string, source: string): PriceSeries {
  const problems = new Problems(source);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    problems.add(null, 'JSON', `not valid JSON (${(err as Error).message}); expected {"prices": [{"average_price", "timestamp"}]}`);
    problems.throwIfAny();
  }
  const { items, path } = pickItems(doc, problems);
  problems.throwIfAny();
  const times = new Float64Array(items.length);
  const prices = new Float64Array(items.length);
  let n = 0;
  items.forEach((item, i) => {
    const point = readJsonPoint(item, `${path}[${i}]`, problems);
    if (!point) return;
    if (n > 0 && point[0] <= times[n - 1]!) {
      const what =
        point[0] === times[n - 1] ? 'duplicate timestamp (same as the item before)' : 'timestamp is earlier than the item before';
      problems.add(null, `${path}[${i}]`, `${what}; points must be in strictly ascending time order`);
      return;
    }
    [times[n], prices[n]] = point;
    n++;
  });
  if (items.length === 0) problems.add(null, path, 'no price points');
  problems.throwIfAny();
  return { source, length: n, times, prices };
}

function pickItems(doc: unknown, problems: Problems): { items: readonly unknown[]; path: string } {
  if (Array.isArray(doc)) return { items: doc, path: '$' };
  if (typeof doc === 'object' && doc !== null) {
    const { prices, items } = doc as { prices?: unknown; items?: unknown };
    if (Array.isArray(prices) && items === undefined) return { items: prices, path: 'prices' };
    if (Array.isArray(items) && prices === undefined) return { items, path: 'items' };
  }
  problems.add(null, '$', 'expected an object with a "prices" (or "items") array, or an array of {average_price, timestamp}');
  return { items: [], path: '$' };
}

function readJsonPoint(item: unknown, where: string, problems: Problems): [number, number] | undefined {
  if (typeof item !== 'object' || item === null) {
    problems.add(null, where, 'expected an object {"average_price": "…", "timestamp": "…"}');
    return undefined;
  }
  const { average_price: rawPrice, timestamp: rawTime } = item as { average_price?: unknown; timestamp?: unknown };
  const before = problems.count;
  const time =
    typeof rawTime === 'string'
      ? parseRfc3339At(rawTime, 0, rawTime.length)
      : typeof rawTime === 'number' && Number.isSafeInteger(rawTime) && rawTime >= 0 && (rawTime < 1e8 || rawTime >= 1e10)
        ? rawTime
        : NaN;
  if (Number.isNaN(time)) {
    problems.add(null, where, rawTime === undefined ? 'missing "timestamp"' : describeBadTime(String(rawTime)));
  }
  const price =
    typeof rawPrice === 'string' && NUMBER.test(rawPrice.trim()) ? Number(rawPrice) : typeof rawPrice === 'number' ? rawPrice : NaN;
  if (rawPrice === undefined) problems.add(null, where, 'missing "average_price"');
  else if (!Number.isFinite(price)) problems.add(null, where, `average_price ${clip(JSON.stringify(rawPrice))} is not a number`);
  else if (price <= 0) problems.add(null, where, `average_price ${String(rawPrice)} is not positive; prices must be greater than 0`);
  return problems.count === before ? [time, price] : undefined;
}
