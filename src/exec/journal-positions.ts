/**
 * The positions of a whole journal, quickly (`tradeloop positions`): the figures of
 * `positionsFromFills(journal.strategyFills())`, to the digit, at a fraction of the cost.
 *
 * - The books of journal-trades.ts (`applyFill`, `positionOf`), kept in exact bigint units
 *   (exact-books.ts, as the kernel keeps them), over only the columns a
 *   position needs (no exit reasons, no ref_ids, rows as arrays). A value the units cannot read is
 *   the Decimal path's to handle: `positionState` says so (undefined) and the caller falls back.
 * - A snapshot of the books that the journal's writer keeps in its meta table
 *   (`POSITIONS_SNAPSHOT_KEY`), so that a reader applies only what came after it.
 *
 * Order. The books follow the items in the order `strategyFills` gives them: by time, and at one time
 * the holdings (by meta key), then the order fills (by fill id), then the quote executions (by ref_id),
 * ids compared as SQLite compares them (bytes of UTF-8). An item's place in that order is its key.
 *
 * The snapshot holds the books after a prefix of that order, with its watermark: the largest fills
 * rowid it covers, that row's fill id and the number of fills rows up to it; the largest intents rowid
 * when it was made; the key of the last item it applied; and a digest of the holdings and quote
 * executions it covered (they are few, read whole, and a quote's time is its row's last update). A
 * reader uses it only when all of that still holds of the journal (rows are only ever added, and
 * rowids only grow, so these checks cost what was added since, not the journal's size) and every
 * order fill after the rowid sorts after the last key; otherwise (no snapshot, unreadable, another
 * format version, a fill journaled late that sorts before the last one applied, a count, fill id or
 * digest that disagrees, a fill up to the rowid whose intent was journaled after it) it computes the
 * books from every item. Either way the books are those a full recompute gives, since each item is
 * applied in the same order to the same exact values.
 */
import { createHash } from 'node:crypto';
import { exactOf, toText, type Exact } from '../core/exact.js';
import { applyExactFill, exactPositionOf, openExactBook, type ExactBook } from './exact-books.js';
import { holdingFill, type JournalHolding, type StrategyFill, type StrategyPosition } from './journal-trades.js';

/** The journal's meta key of the positions snapshot. */
export const POSITIONS_SNAPSHOT_KEY = 'positions/snapshot';

/** The snapshot's format; a snapshot of another is not read (the books are computed from every fill). */
export const POSITIONS_SNAPSHOT_VERSION = 1;

/**
 * An order fill as the journal reads it for positions:
 * [rowid, fill_id, strategy, market, side, amount, price, commission, commission_asset, at].
 */
export type PositionFillRow = readonly [number, string, string, string, string, string, string, string, string, number];

/** A filled quote execution: [ref_id, strategy, market, side, amount_filled, average_price, updated_at]. */
export type PositionQuoteRow = readonly [string, string, string, string, string, string, number];

/** What positions read of a journal, all in one read transaction. */
export interface PositionSource {
  /** The stored snapshot (meta `POSITIONS_SNAPSHOT_KEY`), if any. */
  readonly snapshot: string | undefined;
  /** The largest rowid of the fills table, and of the intents table (0 when empty). */
  lastFillRow(): number;
  lastIntentRow(): number;
  /** The fill id of the fills row with this rowid. */
  fillIdAt(rowid: number): string | undefined;
  /** How many fills rows there are, and how many of them lie after a rowid. */
  fillRows(): number;
  fillRowsAfter(rowid: number): number;
  /** How many fills rows up to `fillsUpTo` belong to an intent whose rowid is after `intentsAfter`. */
  adopted(intentsAfter: number, fillsUpTo: number): number;
  /** The fills rows with an intent after this rowid, by time then fill id (read as they are applied). */
  fillsAfter(rowid: number): Iterable<PositionFillRow>;
  /** The quote executions that filled, by updated_at then ref_id (as `strategyFills` reads them). */
  quotes(): readonly PositionQuoteRow[];
  /** The meta rows of holdings (key 'holding/%'), by key. */
  holdings(): ReadonlyArray<readonly [string, string]>;
}

/** Where an item sorts: its time, then its kind (holding 0, order fill 1, quote execution 2), then its id. */
type Key = readonly [at: number, kind: number, id: string];

/** One item for a book (a holding or a quote execution), in the journal's text, with its key. */
type Item = Pick<StrategyFill, 'strategy' | 'market' | 'side' | 'amount' | 'price' | 'commission' | 'commissionAsset'> & {
  readonly key: Key;
};

/** One strategy's book in one market, in exact units (exact-books.ts). */
type Tally = ExactBook;

/** The watermark of the books: what of the journal they cover. */
interface Mark {
  /** The largest fills rowid covered (0: none), and that row's fill id. */
  readonly rowid: number;
  readonly fillId: string;
  /** Fills rows up to `rowid`. */
  readonly fills: number;
  /** The largest intents rowid when the books were made: a fill up to `rowid` whose intent is later was not applied. */
  readonly intents: number;
  /** The key of the last item applied (undefined: none). */
  readonly last: Key | undefined;
  /** Digest of the holdings and quote executions covered (those up to `last`). */
  readonly other: string;
}

/** Books with the watermark they cover (a stored snapshot, read). */
interface Snapshot {
  readonly books: Tally[];
  readonly mark: Mark;
}

/** The books after every item of a journal, with the watermark they cover. */
export interface PositionState {
  readonly books: readonly Tally[];
  readonly mark: Mark;
  /** Whether the stored snapshot was used (else every item was applied). */
  readonly fromSnapshot: boolean;
  /** Items applied now: those after the snapshot, or every one. */
  readonly applied: number;
}

/** Raised for an item the units cannot read: the Decimal path decides what it means (it may throw). */
class Unreadable extends Error {}

/**
 * The books after every item of the journal: the snapshot's and the items after it, or every item.
 * Undefined when an item holds a value the exact units cannot read (the caller takes the Decimal path,
 * `positionsFromFills`), or, with `maxWork`, when more than that many items would be applied.
 */
export function positionState(src: PositionSource, options: { readonly maxWork?: number } = {}): PositionState | undefined {
  try {
    return stateOf(src, options.maxWork);
  } catch (e) {
    if (e instanceof Unreadable) return undefined;
    throw e;
  }
}

function stateOf(src: PositionSource, maxWork: number | undefined): PositionState | undefined {
  const other = [...src.holdings().flatMap(holdingItem), ...src.quotes().map(quoteItem)].sort((a, b) => compareKeys(a.key, b.key));
  const snap = storedBooks(src, other, maxWork);
  if (snap !== undefined) {
    try {
      return applied(src, other, snap);
    } catch (e) {
      if (!(e instanceof Stale)) throw e;
    }
  }
  if (maxWork !== undefined && src.lastFillRow() + other.length > maxWork) return undefined;
  return applied(src, other, undefined);
}

/** A fill journaled after the snapshot sorts before its last item: the order the snapshot applied is gone. */
class Stale extends Error {}

/** The stored snapshot when its watermark still holds of the journal (and, with `maxWork`, little is left to apply). */
function storedBooks(src: PositionSource, other: readonly Item[], maxWork: number | undefined): Snapshot | undefined {
  const snap = readSnapshot(src.snapshot);
  if (snap === undefined) return undefined;
  const { mark } = snap;
  if (mark.rowid > 0 && src.fillIdAt(mark.rowid) !== mark.fillId) return undefined;
  if (src.fillRows() - src.fillRowsAfter(mark.rowid) !== mark.fills) return undefined;
  // a fill it covers whose intent came after it: that fill was no strategy's then, and is now
  if (src.adopted(mark.intents, mark.rowid) > 0) return undefined;
  const covered = mark.last === undefined ? [] : other.filter((x) => compareKeys(x.key, mark.last!) <= 0);
  if (digest(covered) !== mark.other) return undefined;
  if (maxWork !== undefined && src.lastFillRow() - mark.rowid > maxWork) return undefined;
  return snap;
}

/**
 * The books after the snapshot's (or none) and every item after its watermark: the order fills after
 * its rowid (by time and fill id, from the query) merged by key with the holdings and quote executions
 * after its last key. Raises Stale at an order fill that sorts before that key.
 */
function applied(src: PositionSource, other: readonly Item[], snap: Snapshot | undefined): PositionState {
  const last = snap?.mark.last;
  const later = last === undefined ? other : other.filter((x) => compareKeys(x.key, last) > 0);
  const books = snap?.books ?? [];
  const byStrategy = new Map<string, Map<string, Tally>>();
  for (const b of books) (byStrategy.get(b.strategy) ?? byStrategy.set(b.strategy, new Map()).get(b.strategy)!).set(b.market, b);
  let recent: Tally | undefined;
  const tally = (strategy: string, market: string, price: string): Tally => {
    // fills of one book tend to come in runs
    if (recent !== undefined && recent.strategy === strategy && recent.market === market) return recent;
    let markets = byStrategy.get(strategy);
    if (markets === undefined) byStrategy.set(strategy, (markets = new Map()));
    let b = markets.get(market);
    if (b === undefined) {
      b = openExactBook(strategy, market, price);
      markets.set(market, b);
      books.push(b);
    }
    return (recent = b);
  };
  const from = snap?.mark.rowid ?? 0;
  let fills = 0;
  // the last item applied: an order fill's key is made only at the end (one per row would be garbage)
  let lastKey = last;
  let lastAt = 0;
  let lastId: string | undefined;
  let j = 0;
  for (const r of src.fillsAfter(from)) {
    const at = r[9];
    const id = r[1];
    if (last !== undefined && compareToFill(last, at, id) >= 0) throw new Stale();
    for (; j < later.length && compareToFill(later[j]!.key, at, id) < 0; j++) {
      lastKey = applyItem(later[j]!, tally);
      lastId = undefined;
    }
    if (typeof r[2] !== 'string' || typeof r[3] !== 'string') throw new Unreadable();
    applyTo(tally(r[2], r[3], r[6]), r[4], r[5], r[6], r[7], r[8], at);
    lastAt = at;
    lastId = id;
    fills++;
  }
  for (; j < later.length; j++) {
    lastKey = applyItem(later[j]!, tally);
    lastId = undefined;
  }
  if (lastId !== undefined) lastKey = [lastAt, FILL, lastId];
  // every fills row read now is covered, those of no intent (yet) too: `adopted` finds them later
  const rowid = Math.max(from, src.lastFillRow());
  const mark: Mark = {
    rowid,
    fillId: rowid === from ? (snap?.mark.fillId ?? '') : (src.fillIdAt(rowid) ?? ''),
    fills: src.fillRows(),
    intents: src.lastIntentRow(),
    last: lastKey,
    other: digest(other),
  };
  return { books, mark, fromSnapshot: snap !== undefined, applied: fills + later.length };
}

function applyItem(x: Item, tally: (strategy: string, market: string, price: string) => Tally): Key {
  applyTo(tally(x.strategy, x.market, x.price), x.side, x.amount, x.price, x.commission, x.commissionAsset, x.key[0]);
  return x.key;
}

/** The positions of `positionsFromFills`, from the books. */
export function positionsOf(state: PositionState): StrategyPosition[] {
  return state.books.map(exactPositionOf);
}

/** The snapshot's text for the journal's meta table: the books as exact decimal strings, and the watermark. */
export function snapshotText(state: PositionState): string {
  const { mark } = state;
  return JSON.stringify({
    v: POSITIONS_SNAPSHOT_VERSION,
    rowid: mark.rowid,
    fillId: mark.fillId,
    fills: mark.fills,
    intents: mark.intents,
    last: mark.last ?? null,
    other: mark.other,
    books: state.books.map((b) => [
      b.strategy,
      b.market,
      toText(b.position),
      toText(b.cost),
      toText(b.realized),
      toText(b.fees),
      b.trips,
      b.wins,
      b.lastAt,
      b.lastPrice,
      b.trip === undefined ? null : [toText(b.trip.spent), toText(b.trip.received)],
    ]),
  });
}

/** A stored snapshot, or undefined when there is none or it is not one this version reads in full. */
function readSnapshot(text: string | undefined): Snapshot | undefined {
  if (text === undefined) return undefined;
  try {
    const s = JSON.parse(text) as Record<string, unknown>;
    if (s.v !== POSITIONS_SNAPSHOT_VERSION || !Array.isArray(s.books)) return undefined;
    const { rowid, fillId, fills, intents, last, other } = s;
    if (!isCount(rowid) || typeof fillId !== 'string' || !isCount(fills) || !isCount(intents) || typeof other !== 'string')
      return undefined;
    if (last !== null && !isKey(last)) return undefined;
    const books: Tally[] = [];
    for (const b of s.books as unknown[]) {
      const tally = readTally(b);
      if (tally === undefined) return undefined;
      books.push(tally);
    }
    return { books, mark: { rowid, fillId, fills, intents, last: last ?? undefined, other } };
  } catch {
    return undefined;
  }
}

function readTally(b: unknown): Tally | undefined {
  if (!Array.isArray(b) || b.length !== 11) return undefined;
  const [strategy, market, position, cost, realized, fees, trips, wins, lastAt, lastPrice, trip] = b as unknown[];
  if (typeof strategy !== 'string' || typeof market !== 'string' || typeof lastPrice !== 'string') return undefined;
  if (!isCount(trips) || !isCount(wins) || typeof lastAt !== 'number') return undefined;
  const values = [position, cost, realized, fees].map(exactText);
  if (values.some((v) => v === undefined)) return undefined;
  let open: Tally['trip'];
  if (trip !== null) {
    if (!Array.isArray(trip) || trip.length !== 2) return undefined;
    const [spent, received] = (trip as unknown[]).map(exactText);
    if (spent === undefined || received === undefined) return undefined;
    open = { spent, received };
  }
  const [p, c, r, f] = values as Exact[];
  return { strategy, market, base: undefined, position: p!, cost: c!, realized: r!, fees: f!, trips, wins, lastAt, lastPrice, trip: open };
}

const exactText = (v: unknown): Exact | undefined => (typeof v === 'string' ? exactOf(v) : undefined);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isKey = (v: unknown): v is Key =>
  Array.isArray(v) && v.length === 3 && typeof v[0] === 'number' && typeof v[1] === 'number' && typeof v[2] === 'string';

function applyTo(
  b: Tally,
  side: string,
  amountText: string,
  priceText: string,
  commissionText: string,
  commissionAsset: string,
  at: number,
): void {
  const amount = read(amountText);
  const price = read(priceText);
  const commission = read(commissionText);
  if (typeof at !== 'number') throw new Unreadable();
  applyExactFill(b, side, amount, price, priceText, commission, commissionAsset, at);
}

function read(text: string): Exact {
  const x = typeof text === 'string' ? exactOf(text) : undefined;
  if (x === undefined) throw new Unreadable();
  return x;
}

function holdingItem([key, value]: readonly [string, string]): Item[] {
  const f = holdingFill(key, JSON.parse(value) as JournalHolding);
  if (f === undefined) return [];
  if (typeof f.at !== 'number') throw new Unreadable();
  return [{ key: [f.at, 0, key], ...f }];
}

function quoteItem([refId, strategy, market, side, amount, price, at]: PositionQuoteRow): Item {
  if (typeof strategy !== 'string' || typeof market !== 'string' || typeof at !== 'number') throw new Unreadable();
  return { key: [at, 2, refId], strategy, market, side, amount, price, commission: '0', commissionAsset: '' };
}

/** The kind of an order fill in a key. */
const FILL = 1;

/** `compareKeys(key, [at, FILL, id])`, without making the order fill's key. */
function compareToFill(key: Key, at: number, id: string): number {
  return key[0] - at || key[1] - FILL || compareIds(key[2], id);
}

/** The holdings and quote executions covered, in order: every field a book reads of them. */
function digest(items: readonly Item[]): string {
  const h = createHash('sha256');
  for (const x of items) {
    h.update(
      `${x.key[1]}\u001f${x.key[2]}\u001f${x.key[0]}\u001f${x.strategy}\u001f${x.market}\u001f${x.side}\u001f${x.amount}\u001f${x.price}\u001e`,
    );
  }
  return `${items.length}:${h.digest('base64')}`;
}

function compareKeys(a: Key, b: Key): number {
  return a[0] - b[0] || a[1] - b[1] || compareIds(a[2], b[2]);
}

/**
 * Strings in SQLite's order (BINARY: the bytes of UTF-8, which is code point order): UTF-16 units
 * compare the same way except a surrogate (a code point above U+FFFF) against U+E000..U+FFFF.
 */
export function compareIds(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}
