import type { MarketSymbol } from '../../core/index.js';

/** Kinds of response a polling source receives; one poll stream per kind (and market). */
export type StreamKind =
  'ticker' | 'book' | 'prices' | 'quotes' | 'trades' | 'balances' | 'open-orders' | 'fills' | 'quote-executions' | 'history';

const KINDS: ReadonlySet<string> = new Set<StreamKind>([
  'ticker',
  'book',
  'prices',
  'quotes',
  'trades',
  'balances',
  'open-orders',
  'fills',
  'quote-executions',
  'history',
]);

/** A stream's identity: `ticker:BTCUSD`, `book:ETHUSD`, `trades:BTCUSD`, `prices`, `balances`, `history:BTCUSD` … */
export interface StreamId {
  readonly kind: StreamKind;
  readonly market?: MarketSymbol;
}

/** The stream's name as health reports and recordings carry it. */
export function streamName(id: StreamId): string {
  return id.market === undefined ? id.kind : `${id.kind}:${id.market}`;
}

/** Parses a stream name back (recordings); undefined for names this version does not know. */
export function parseStreamName(name: string): StreamId | undefined {
  const colon = name.indexOf(':');
  const kind = colon < 0 ? name : name.slice(0, colon);
  if (!KINDS.has(kind)) return undefined;
  const market = colon < 0 ? undefined : name.slice(colon + 1);
  if (market === '') return undefined;
  return market === undefined ? { kind: kind as StreamKind } : { kind: kind as StreamKind, market };
}
