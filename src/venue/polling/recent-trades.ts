import { MalformedResponseError } from '../../api/index.js';

/** One trade of a market's public tape (ListRecentExecutions), as a recording keeps it. */
export interface RecordedTrade {
  /** The platform's id of the trade (absent on platforms that omit it). */
  readonly matchNumber?: string;
  /** Wire decimal strings: the replay's fills are money. */
  readonly price: string;
  readonly amount: string;
  /** When the trade executed (the server's `executed_at`), epoch ms. */
  readonly at: number;
}

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * The trades of a ListRecentExecutions response (or of a recorded one), oldest first. A record
 * without a positive decimal price and amount or a readable `executed_at` is refused naming the
 * field, as every other record of the streams is: a trade the replay cannot price fills nothing.
 */
export function tradesFromWire(body: unknown, operation = 'trades'): RecordedTrade[] {
  return parsed(body, operation).map((p) => p.trade);
}

/** Each trade with the wire record it came from, oldest first. */
function parsed(body: unknown, operation: string): { trade: RecordedTrade; raw: unknown }[] {
  const list = (body as { items?: unknown } | null)?.items;
  if (!Array.isArray(list)) throw new MalformedResponseError(`${operation} response: expected an items array`, { operation });
  const out = list.map((raw: unknown, i): { trade: RecordedTrade; raw: unknown } => {
    const r = (raw ?? {}) as { match_number?: unknown; price?: unknown; amount?: unknown; executed_at?: unknown };
    const bad = (field: string): never => {
      throw new MalformedResponseError(
        `${operation} response: items[${i}].${field} is ${JSON.stringify(r[field as keyof typeof r])}, expected ${field === 'executed_at' ? 'an ISO time' : 'a decimal string above zero'}`,
        { operation },
      );
    };
    const price = typeof r.price === 'string' && DECIMAL.test(r.price) && Number(r.price) > 0 ? r.price : bad('price');
    const amount = typeof r.amount === 'string' && DECIMAL.test(r.amount) && Number(r.amount) > 0 ? r.amount : bad('amount');
    const at = typeof r.executed_at === 'string' ? Date.parse(r.executed_at) : NaN;
    if (!Number.isFinite(at)) bad('executed_at');
    return { trade: { ...(typeof r.match_number === 'string' && { matchNumber: r.match_number }), price, amount, at }, raw };
  });
  return out.sort((a, b) => a.trade.at - b.trade.at);
}

/**
 * What a trades poll adds to a recording: the platform answers with its latest 2000 trades each
 * time, so only the trades not seen in an earlier poll are kept (executed after the newest seen, or
 * at that same time with a match number not seen: one without an id there is taken as seen, so a
 * trade is never recorded twice), oldest first; the first poll keeps the trades
 * executed since `sinceMs` (the stream's start). Bounded: it remembers one timestamp and the ids
 * at it.
 */
export class TradeTape {
  private newestAt: number;
  private idsAtNewest = new Set<string>();

  constructor(private readonly sinceMs: number) {
    this.newestAt = sinceMs;
  }

  /** The wire records of `body` new since the last call, oldest first (the response is checked first). */
  fresh(body: unknown): { items: unknown[] } {
    const kept = parsed(body, 'ListRecentExecutions').filter(
      ({ trade: t }) =>
        t.at > this.newestAt ||
        (t.at === this.newestAt && t.at >= this.sinceMs && t.matchNumber !== undefined && !this.idsAtNewest.has(t.matchNumber)),
    );
    for (const { trade: t } of kept) {
      if (t.at > this.newestAt) {
        this.newestAt = t.at;
        this.idsAtNewest = new Set();
      }
      if (t.matchNumber !== undefined) this.idsAtNewest.add(t.matchNumber);
    }
    return { items: kept.map((k) => k.raw) };
  }
}
