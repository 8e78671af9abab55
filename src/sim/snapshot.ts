import { D } from '../core/decimal.js';
import { InputError } from '../core/errors.js';
import { isStopType } from '../platform/order-life.js';
import { type IdSource } from './ids.js';
import { type Ledger } from './exchange/ledger.js';
import { type MarketState, type TapeTrade } from './exchange/market-state.js';
import { type SimExecution, type SimOrder, isClosed } from './exchange/order-types.js';
import { type Profile, type ProfileStore } from './exchange/profiles.js';
import { type QuoteExecutionStore, type SimQuoteExecution } from './exchange/quote-executions.js';
import { type QuoteBook, type SimQuote } from './exchange/quotes.js';
import { type Settlement } from './exchange/settlement.js';
import { type LimitUsage, type TransferLimits } from './platform/transfer-limit-rules.js';
import { type SimTransfer, type TransferStore } from './platform/transfers.js';
import { type OrderEntry } from './exchange/trading.js';
import { type PlatformServices, type PlatformSnapshot } from './platform/platform-services.js';

export const SNAPSHOT_VERSION = 1;

type Json = Record<string, unknown>;

/**
 * Everything the sim must keep across a restart, as plain JSON (decimals as strings). The market
 * itself is not saved: prices, books and the background tape are pure functions of the seed.
 */
export interface SimSnapshot {
  readonly version: typeof SNAPSHOT_VERSION;
  readonly seed: number;
  /** The world's instance id, mixed into the ids it issues (absent in older files: seed-only ids). */
  readonly instanceId?: string;
  readonly tickMs: number;
  readonly startedAt: number;
  /** Simulated time the snapshot was taken at. */
  readonly savedAt: number;
  readonly ids: Readonly<Record<string, number>>;
  readonly profiles: { readonly defaultId: string; readonly seq: number; readonly items: readonly Profile[] };
  readonly balances: ReadonlyArray<readonly [string, string, string, string]>;
  readonly orders: readonly Json[];
  readonly executions: readonly Json[];
  readonly transfers: readonly Json[];
  readonly quotes: readonly Json[];
  readonly quoteExecutions: readonly Json[];
  readonly limitUsage: readonly LimitUsage[];
  readonly tapes: Readonly<Record<string, { readonly fills: readonly TapeTrade[]; readonly absorbed: readonly string[] }>>;
  /** Identities, accounts, fiat, crypto, settlements, conversions, tax corrections (absent in older files). */
  readonly platform?: PlatformSnapshot;
}

/** The sim's stores, as the snapshot code sees them. */
export interface SnapshotParts {
  readonly ids: IdSource;
  readonly profiles: ProfileStore;
  readonly ledger: Ledger;
  readonly entry: OrderEntry;
  readonly settlement: Settlement;
  readonly transfers: TransferStore;
  readonly quotes: QuoteBook;
  readonly quoteExecutions: QuoteExecutionStore;
  readonly limits: TransferLimits;
  readonly platform: PlatformServices;
  readonly markets: ReadonlyMap<string, MarketState>;
  market(market: string): MarketState;
}

const ORDER_DECIMALS = ['baseAmount', 'quoteAmount', 'price', 'stopPrice', 'amountFilled', 'notionalFilled', 'reserved'];
const EXECUTION_DECIMALS = ['amount', 'price', 'gross', 'commission', 'rebate'];
const TRANSFER_DECIMALS = ['amount', 'total', 'fee'];
const QUOTE_DECIMALS = ['price'];
const QUOTE_EXECUTION_DECIMALS = ['price', 'baseAmount', 'quoteAmount'];

/**
 * Encoded records that can no longer change (executions, closed orders), by the live record: a
 * state file that saves before every answer takes a snapshot each time, and re-encoding thousands
 * of final records each time would cost more than the rest of the answer.
 */
export type SnapshotCache = WeakMap<object, Json>;

/** Captures the stores' state (final records from `cache` when given). */
export function takeSnapshot(
  p: SnapshotParts,
  meta: Pick<SimSnapshot, 'seed' | 'instanceId' | 'tickMs' | 'startedAt' | 'savedAt'>,
  cache?: SnapshotCache,
): SimSnapshot {
  const tapes: Record<string, ReturnType<MarketState['savedTape']>> = {};
  for (const [name, m] of p.markets) {
    const tape = m.savedTape();
    if (tape.fills.length > 0 || tape.absorbed.length > 0) tapes[name] = tape;
  }
  return {
    version: SNAPSHOT_VERSION,
    ...meta,
    ids: p.ids.save(),
    profiles: p.profiles.saved(),
    balances: p.ledger.saved(),
    orders: p.entry.orders.map((o) => encodeFinal(cache, o, ORDER_DECIMALS, isClosed(o.status))),
    executions: p.settlement.executions.map((e) => encodeFinal(cache, e, EXECUTION_DECIMALS, true)),
    transfers: p.transfers.transfers.map((t) => encode(t, TRANSFER_DECIMALS)),
    quotes: p.quotes.saved().map((q) => encode(q, QUOTE_DECIMALS)),
    quoteExecutions: p.quoteExecutions.executions.map((x) => encode(x, QUOTE_EXECUTION_DECIMALS)),
    limitUsage: p.limits.saved(),
    tapes,
    platform: JSON.parse(JSON.stringify(p.platform.saved())) as PlatformSnapshot,
  };
}

/** Puts a snapshot's state into freshly built stores; resting and stop orders go back on their books. */
export function restoreSnapshot(p: SnapshotParts, s: SimSnapshot): void {
  p.ids.restore(s.ids);
  p.profiles.restore(s.profiles);
  p.ledger.restore(s.balances);
  const orders = s.orders.map((o) => decode<SimOrder>(o, ORDER_DECIMALS));
  p.entry.restore(orders);
  for (const o of orders) {
    if (isClosed(o.status) || o.status !== 'OPEN') continue;
    const market = p.market(o.market);
    if (isStopType(o.type) && !o.isTriggered) market.stops.push(o);
    else market.rest(o);
  }
  p.settlement.restore(s.executions.map((e) => decode<SimExecution>(e, EXECUTION_DECIMALS)));
  p.transfers.restore(s.transfers.map((t) => decode<SimTransfer>(t, TRANSFER_DECIMALS)));
  p.quotes.restore(s.quotes.map((q) => decode<SimQuote>(q, QUOTE_DECIMALS)));
  p.quoteExecutions.restore(s.quoteExecutions.map((x) => decode<SimQuoteExecution>(x, QUOTE_EXECUTION_DECIMALS)));
  p.limits.restore(s.limitUsage);
  for (const [name, tape] of Object.entries(s.tapes)) p.market(name).restoreTape(tape);
  p.platform.restore(s.platform);
}

/** Parses and checks a snapshot file's text; errors name the file and what is wrong. */
export function parseSnapshot(text: string, source: string): SimSnapshot {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InputError('state', `${source} is not valid JSON: delete it to start afresh, or restore a good copy`);
  }
  const s = value as Partial<SimSnapshot> | null;
  if (s === null || typeof s !== 'object') throw new InputError('state', `${source} does not hold a sandbox snapshot object`);
  if (s.version !== SNAPSHOT_VERSION)
    throw new InputError(
      'state',
      `${source} is snapshot version ${JSON.stringify(s.version)}; this sandbox reads version ${SNAPSHOT_VERSION}`,
    );
  for (const key of ['seed', 'tickMs', 'startedAt', 'savedAt'] as const) {
    if (typeof s[key] !== 'number') throw new InputError('state', `${source}: field ${key} must be a number`);
  }
  for (const key of ['balances', 'orders', 'executions', 'transfers', 'quotes', 'quoteExecutions', 'limitUsage'] as const) {
    if (!Array.isArray(s[key])) throw new InputError('state', `${source}: field ${key} must be an array`);
  }
  if (s.profiles === undefined || !Array.isArray(s.profiles.items) || typeof s.profiles.defaultId !== 'string')
    throw new InputError('state', `${source}: field profiles is malformed`);
  if (s.instanceId !== undefined && (typeof s.instanceId !== 'string' || s.instanceId === ''))
    throw new InputError('state', `${source}: field instanceId must be a non-empty string when present`);
  if (s.ids === undefined || typeof s.ids !== 'object' || s.tapes === undefined || typeof s.tapes !== 'object')
    throw new InputError('state', `${source}: fields ids and tapes must be objects`);
  return s as SimSnapshot;
}

function encodeFinal(cache: SnapshotCache | undefined, record: object, decimals: readonly string[], final: boolean): Json {
  if (cache === undefined || !final) return encode(record, decimals);
  let out = cache.get(record);
  if (out === undefined) cache.set(record, (out = encode(record, decimals)));
  return out;
}

function encode(record: object, decimals: readonly string[]): Json {
  const out: Json = { ...record };
  for (const k of decimals) {
    const v = out[k];
    if (v !== undefined) out[k] = (v as { toFixed(): string }).toFixed();
  }
  return out;
}

function decode<T>(raw: Json, decimals: readonly string[]): T {
  const out: Json = { ...raw };
  for (const k of decimals) {
    const v = out[k];
    if (v !== undefined && v !== null) out[k] = new D(v as string);
  }
  return out as T;
}
