import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Rng } from '../core/index.js';
import { Journal } from './journal.js';
import { compareIds, POSITIONS_SNAPSHOT_KEY, positionState, type PositionFillRow, type PositionSource } from './journal-positions.js';
import { holdingKey, positionsFromFills } from './journal-trades.js';
import { openSqlite } from './sqlite.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function journalFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-positions-'));
  dirs.push(dir);
  return join(dir, 'journal.sqlite');
}

const T0 = 1_700_000_000_000;

/** Writes a journal as a bot does: order fills, quote executions, holdings. */
class Writer {
  readonly journal: Journal;
  private n = 0;

  constructor(readonly file: string) {
    this.journal = new Journal(file);
  }

  /** An order and one fill of it (`fillId` defaults to one that sorts after the earlier ones). */
  fill(
    strategy: string,
    market: string,
    side: 'BUY' | 'SELL',
    amount: string,
    price: string,
    at: number,
    fee: { commission?: string; asset?: string; fillId?: string } = {},
  ): void {
    const ref = `o${String(++this.n).padStart(6, '0')}`;
    this.journal.recordDecision({
      kind: 'approve',
      at,
      intent: { kind: 'place-order', intentId: ref, strategy, market, side, type: 'MARKET', baseAmount: amount },
    });
    this.journal.recordFill({
      fillId: fee.fillId ?? `f${String(this.n).padStart(6, '0')}`,
      refId: ref,
      orderId: `v-${ref}`,
      market,
      side,
      amount,
      price,
      commission: fee.commission ?? '0',
      commissionAsset: fee.asset ?? 'USD',
      at,
    });
  }

  /** A quote execution settled at `at` (its row's last update). */
  quote(strategy: string, market: string, side: 'BUY' | 'SELL', amount: string, price: string, at: number): string {
    const ref = `q${String(++this.n).padStart(6, '0')}`;
    this.journal.recordDecision({
      kind: 'approve',
      at,
      intent: { kind: 'execute-quote', intentId: ref, strategy, market, side, baseAmount: amount },
    });
    this.journal.update(ref, at, 'done', { status: 'SETTLED', amountFilled: amount, averagePrice: price }, { type: 'status' });
    return ref;
  }

  holding(strategy: string, market: string, amount: string, price: string, at: number): void {
    this.journal.setMeta(holdingKey(strategy, market), JSON.stringify({ amount, price, at }));
  }
}

/** What a reader sees: the fast positions, how they were made, and the Decimal books of every fill. */
function read(file: string): { positions: string; full: string; fromSnapshot: boolean | undefined; applied: number | undefined } {
  const reader = new Journal(file, { readonly: true });
  try {
    const state = reader.positionState();
    return {
      positions: JSON.stringify(reader.positions()),
      full: JSON.stringify(positionsFromFills(reader.strategyFills())),
      fromSnapshot: state?.fromSnapshot,
      applied: state?.applied,
    };
  } finally {
    reader.close();
  }
}

/** A random decimal text: up to `whole` whole digits and `decimals` decimals (never zero). */
function decimal(rng: Rng, whole: number, decimals: number): string {
  let w = String(rng.int(0, 9));
  for (let i = rng.int(0, whole - 1); i > 0; i--) w += String(rng.int(0, 9));
  let f = '';
  for (let i = rng.int(0, decimals); i > 0; i--) f += String(rng.int(0, 9));
  const text = `${w.replace(/^0+(?=\d)/, '')}${f ? `.${f}` : ''}`;
  return /[1-9]/.test(text) ? text : '1.5';
}

/** A holding, an order fill and a quote execution, then a checkpoint: a journal with a snapshot of all three. */
function checkpointed(): Writer {
  const w = new Writer(journalFile());
  w.holding('grid', 'BTCUSD', '0.2', '30000', T0);
  w.fill('grid', 'BTCUSD', 'BUY', '0.5', '33000.5', T0 + 1_000, { commission: '16.5' });
  w.quote('dca', 'ETHUSD', 'BUY', '2', '1800', T0 + 2_000);
  w.journal.checkpoint();
  return w;
}

const STRATEGIES = ['grid', 'dca', 'sma'];
const MARKETS = ['BTCUSD', 'ETHUSD', 'BTCEUR'];

describe('positions from a snapshot and the items after it', () => {
  it('equal the Decimal books of every fill on a random journal, with late fills, quote executions and holdings', () => {
    const rng = new Rng('positions-snapshot');
    const file = journalFile();
    const w = new Writer(file);
    let t = T0;
    /** The last time a checkpoint covered; an item before it, journaled after, makes the snapshot stale. */
    let covered = -1;
    let stale = false;
    const seen = { fromSnapshot: 0, recomputed: 0, late: 0 };
    const held = new Set<string>();
    for (let round = 0; round < 60; round++) {
      for (let k = rng.int(1, 12); k > 0; k--) {
        const strategy = STRATEGIES[rng.int(0, 2)]!;
        const market = MARKETS[rng.int(0, 2)]!;
        const base = market.slice(0, 3);
        const late = covered >= 0 && rng.chance(0.06);
        // late: journaled now, but at a time before what the snapshot covered
        // some share a time (with ids in no particular order), but never the time a checkpoint covered
        const at = late ? covered - rng.int(1, 60_000) : (t += t > covered && rng.chance(0.2) ? 0 : rng.int(1, 60_000));
        if (late) {
          stale = true;
          seen.late++;
        }
        const side = rng.chance(0.55) ? 'BUY' : 'SELL';
        const amount = rng.chance(0.02) ? decimal(rng, 20, 25) : decimal(rng, 2, 8);
        const price = rng.chance(0.02) ? decimal(rng, 20, 25) : decimal(rng, 5, 2);
        const kind = rng.next();
        if (kind < 0.12) w.quote(strategy, market, side, amount, price, at);
        else if (kind < 0.15 && !held.has(`${strategy}/${market}`)) {
          // a balance is assigned once
          held.add(`${strategy}/${market}`);
          w.holding(strategy, market, amount, price, at);
        } else {
          const commission = rng.chance(0.3) ? '0' : rng.chance(0.1) ? `-${decimal(rng, 1, 4)}` : decimal(rng, 2, 6);
          const asset = rng.chance(0.2) ? base : market.slice(3);
          const fillId = rng.chance(0.2) ? `x${rng.int(0, 1e9).toString(36)}` : undefined;
          w.fill(strategy, market, side, amount, price, at, { commission, asset, ...(fillId !== undefined && { fillId }) });
        }
      }
      const r = read(file);
      expect(r.positions).toBe(r.full);
      if (covered >= 0) expect(r.fromSnapshot).toBe(!stale);
      if (r.fromSnapshot) seen.fromSnapshot++;
      else seen.recomputed++;
      if (rng.chance(0.5)) {
        w.journal.checkpoint();
        covered = t;
        stale = false;
        // the stored books are those of every item: nothing is left to apply
        const after = read(file);
        expect([after.fromSnapshot, after.applied, after.positions]).toEqual([true, 0, after.full]);
      }
    }
    w.journal.close();
    expect(seen.fromSnapshot).toBeGreaterThan(10);
    expect(seen.recomputed).toBeGreaterThan(3);
    expect(seen.late).toBeGreaterThan(3);
  });

  it('applies only the items after the snapshot', () => {
    const w = checkpointed();
    w.fill('grid', 'BTCUSD', 'SELL', '0.3', '34000', T0 + 3_000, { commission: '10.2' });
    w.quote('dca', 'ETHUSD', 'SELL', '0.5', '1900', T0 + 4_000);
    w.fill('sma', 'BTCEUR', 'BUY', '0.1', '31000', T0 + 5_000, { commission: '0.0001', asset: 'BTC' });
    w.holding('sma', 'ETHUSD', '1', '1700', T0 + 6_000);
    const r = read(w.file);
    expect([r.fromSnapshot, r.applied]).toEqual([true, 4]);
    expect(r.positions).toBe(r.full);
    expect(JSON.parse(r.positions)).toHaveLength(4);
    w.journal.close();
  });

  it('computes every item again when an item sorts before the last the snapshot applied, and the next checkpoint stores the books anew', () => {
    const cases: Array<[string, (w: Writer) => void]> = [
      ['an order fill journaled late', (w) => w.fill('grid', 'BTCUSD', 'SELL', '0.1', '34000', T0 + 1_500)],
      [
        'an order fill at the last time, its id before the last',
        (w) => w.fill('grid', 'BTCUSD', 'SELL', '0.1', '34000', T0 + 3_000, { fillId: 'a' }),
      ],
      ['a quote execution settled late', (w) => w.quote('dca', 'ETHUSD', 'SELL', '0.5', '1900', T0 + 500)],
      ['a holding assigned before', (w) => w.holding('sma', 'BTCUSD', '1', '30000', T0 + 2_500)],
    ];
    for (const [label, late] of cases) {
      const w = new Writer(journalFile());
      w.fill('grid', 'BTCUSD', 'BUY', '0.5', '33000', T0 + 1_000, { commission: '16.5' });
      w.quote('dca', 'ETHUSD', 'BUY', '2', '1800', T0 + 2_000);
      w.fill('grid', 'BTCUSD', 'BUY', '0.25', '33100', T0 + 3_000, { commission: '8', fillId: 'm' });
      w.journal.checkpoint();
      expect(read(w.file).fromSnapshot, label).toBe(true);
      late(w);
      const r = read(w.file);
      expect([label, r.fromSnapshot, r.applied, r.positions]).toEqual([label, false, 4, r.full]);
      w.journal.checkpoint();
      const again = read(w.file);
      expect([label, again.fromSnapshot, again.applied, again.positions]).toEqual([label, true, 0, r.full]);
      w.journal.close();
    }
  });

  it('uses the stored books when the watermark holds (so a wrong snapshot would show), and not when it does not', () => {
    const w = checkpointed();
    const stored = w.journal.getMeta(POSITIONS_SNAPSHOT_KEY)!;
    const snap = JSON.parse(stored) as Record<string, unknown> & { books: unknown[][] };
    const edit = (change: (s: typeof snap) => void): string => {
      const copy = structuredClone(snap);
      change(copy);
      return JSON.stringify(copy);
    };
    // a wrong position with a good watermark is believed: what the writer stores is what readers show
    w.journal.setMeta(
      POSITIONS_SNAPSHOT_KEY,
      edit((s) => void (s.books[0]![2] = '9')),
    );
    const wrong = read(w.file);
    expect(wrong.fromSnapshot).toBe(true);
    expect(wrong.positions).not.toBe(wrong.full);
    const refused: Array<[string, string]> = [
      ['another format version', edit((s) => void (s.v = 2))],
      ['unreadable text', stored.slice(0, -3)],
      ['a count of fills that disagrees', edit((s) => void (s.fills = 2))],
      ['fills it covers whose intents came after it', edit((s) => void (s.intents = 0))],
      ['another fill at its rowid', edit((s) => void (s.fillId = 'f999999'))],
      ['a rowid beyond the fills', edit((s) => void (s.rowid = 7))],
      ['another digest of holdings and quotes', edit((s) => void (s.other = `${String(s.other)}x`))],
      ['a book value that is no decimal', edit((s) => void (s.books[0]![3] = 'abc'))],
      ['a book of the wrong shape', edit((s) => void s.books[0]!.pop())],
    ];
    for (const [label, text] of refused) {
      w.journal.setMeta(POSITIONS_SNAPSHOT_KEY, text);
      const r = read(w.file);
      expect([label, r.fromSnapshot, r.applied, r.positions]).toEqual([label, false, 3, r.full]);
    }
    w.journal.setMeta(POSITIONS_SNAPSHOT_KEY, stored);
    expect(read(w.file).fromSnapshot).toBe(true);
    w.journal.close();
  });

  it('notices a quote execution updated after the snapshot (its time moves) and a fill whose intent came later', () => {
    const w = new Writer(journalFile());
    const ref = w.quote('dca', 'ETHUSD', 'BUY', '2', '1800', T0 + 1_000);
    w.fill('dca', 'ETHUSD', 'SELL', '1', '1900', T0 + 2_000);
    w.journal.checkpoint();
    // updated again: the quote now sorts after the sell, as a full recompute reads it
    w.journal.update(ref, T0 + 3_000, 'done', {}, { type: 'status' });
    const moved = read(w.file);
    expect([moved.fromSnapshot, moved.positions]).toEqual([false, moved.full]);
    w.journal.checkpoint();
    // a fill journaled before its intent is no strategy's until the intent is written; a later fill is covered
    w.journal.recordFill({
      fillId: 'f-early',
      refId: 'o-late',
      orderId: 'v',
      market: 'ETHUSD',
      side: 'BUY',
      amount: '1',
      price: '1850',
      commission: '0',
      commissionAsset: 'USD',
      at: T0 + 4_000,
    });
    w.fill('dca', 'ETHUSD', 'BUY', '0.5', '1870', T0 + 4_500);
    w.journal.checkpoint();
    expect(read(w.file).fromSnapshot).toBe(true);
    w.journal.recordDecision({
      kind: 'approve',
      at: T0 + 5_000,
      intent: { kind: 'place-order', intentId: 'o-late', strategy: 'dca', market: 'ETHUSD', side: 'BUY', type: 'MARKET', baseAmount: '1' },
    });
    const r = read(w.file);
    expect([r.fromSnapshot, r.positions]).toEqual([false, r.full]);
    // the quote (2), moved after the sell, bought after it: the sell found nothing owned; then 1 and 0.5
    expect(JSON.parse(r.positions)).toEqual([expect.objectContaining({ position: '3.5' })]);
    w.journal.close();
  });

  it('leaves a journal as it found it: a reader writes no snapshot, and a writer without the lock stores one only at a checkpoint', () => {
    const file = journalFile();
    const w = new Writer(file);
    w.fill('grid', 'BTCUSD', 'BUY', '0.5', '33000', T0);
    w.journal.close();
    const before = createHash('sha256').update(readFileSync(file)).digest('hex');
    expect(read(file).fromSnapshot).toBe(false);
    expect(read(file).positions).toBe(read(file).full);
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before);
    const reader = new Journal(file, { readonly: true });
    expect(reader.getMeta(POSITIONS_SNAPSHOT_KEY)).toBeUndefined();
    expect(() => reader.setMeta('x', 'y')).toThrow(/readonly/);
    reader.close();
    // the bot's writer (it holds the lock) brings the snapshot up to date on close
    const bot = new Journal(file, { lock: { release: () => undefined } });
    bot.recordFill({
      fillId: 'f2',
      refId: 'o000001',
      orderId: 'v',
      market: 'BTCUSD',
      side: 'SELL',
      amount: '0.2',
      price: '34000',
      commission: '0',
      commissionAsset: 'USD',
      at: T0 + 1,
    });
    bot.close();
    const r = read(file);
    expect([r.fromSnapshot, r.applied, r.positions]).toEqual([true, 0, r.full]);
    expect(() => new Journal(join(file, '..', 'none.sqlite'), { readonly: true })).toThrow();
  });

  it('gives the Decimal books to the digit on awkward values: base-asset fees, rebates, oversized and unowned sells, 40-digit rounding', () => {
    const w = new Writer(journalFile());
    let at = T0;
    const f = (side: 'BUY' | 'SELL', amount: string, price: string, commission = '0', asset = 'USD', strategy = 'a'): void =>
      w.fill(strategy, 'BTCUSD', side, amount, price, (at += 1_000), { commission, asset });
    f('SELL', '1', '100'); // nothing owned
    f('BUY', '0.3', '33333.33333333', '0.0003', 'BTC'); // fee in the base asset
    f('BUY', '0.7', '31000.1', '-0.5'); // a rebate
    f('SELL', '0.123456789', '35000.987654321', '1.23'); // a part: the average cost is a quotient
    f('SELL', '5', '36000', '3'); // more than is held: the fee shared in proportion
    f('BUY', '0', '30000', '1'); // nothing bought
    f('BUY', '123456789012345678.123456789012345678', '98765432109876543.987654321', '0.000000000000000001');
    f('SELL', '0.000000000000000000000123', '3.3333333333333333333333333333');
    f('SELL', '123456789012345678.123456789', '98765432109876544', '7');
    f('BUY', '1', '3', '0', 'USD', 'b');
    f('BUY', '2', '3', '0', 'USD', 'b');
    f('SELL', '1', '7', '0', 'USD', 'b'); // cost 9 over 3: a third, rounded to 40 digits
    const r = read(w.file);
    expect(r.fromSnapshot).toBe(false);
    expect(r.applied).toBe(12);
    expect(r.positions).toBe(r.full);
    w.journal.checkpoint();
    f('SELL', '1.5', '8.25', '0.01', 'USD', 'b');
    f('BUY', '0.0000001', '1e5', '1e-9', 'BTC');
    const again = read(w.file);
    expect([again.fromSnapshot, again.applied, again.positions]).toEqual([true, 2, again.full]);
    w.journal.close();
  });

  it('leaves a value the exact units cannot read to the Decimal path', () => {
    const w = new Writer(journalFile());
    w.fill('a', 'BTCUSD', 'BUY', '1', '100', T0);
    w.fill('a', 'BTCUSD', 'SELL', '0.5', 'Infinity', T0 + 1);
    w.journal.checkpoint();
    const reader = new Journal(w.file, { readonly: true });
    expect(reader.positionState()).toBeUndefined();
    expect(reader.positions()).toEqual(positionsFromFills(reader.strategyFills()));
    expect(reader.getMeta(POSITIONS_SNAPSHOT_KEY)).toBeUndefined();
    reader.close();
    w.journal.close();
  });

  it('gives no books when more than the work allowed is left (a checkpoint stays short)', () => {
    const rows: PositionFillRow[] = Array.from({ length: 5 }, (_, i) => [
      i + 1,
      `f${i}`,
      'a',
      'BTCUSD',
      'BUY',
      '1',
      '100',
      '0',
      'USD',
      T0 + i,
    ]);
    const source: PositionSource = {
      snapshot: undefined,
      lastFillRow: () => rows.length,
      lastIntentRow: () => rows.length,
      fillIdAt: (rowid) => rows[rowid - 1]?.[1],
      fillRows: () => rows.length,
      fillRowsAfter: (rowid) => rows.filter((r) => r[0] > rowid).length,
      adopted: () => 0,
      fillsAfter: (rowid) => rows.filter((r) => r[0] > rowid),
      quotes: () => [],
      holdings: () => [],
    };
    expect(positionState(source, { maxWork: 4 })).toBeUndefined();
    expect(positionState(source, { maxWork: 5 })?.applied).toBe(5);
  });

  it('orders ids as SQLite does (bytes of UTF-8), astral characters after the rest of the BMP', () => {
    const rng = new Rng('ids');
    const alphabet = ['a', 'B', '0', '~', 'é', '\u{7ff}', '\u{d7ff}', '\u{e000}', '\u{ffef}', '\u{10000}', '\u{1f600}', '\u{10ffff}'];
    const ids = new Set<string>();
    while (ids.size < 400) {
      let s = '';
      for (let k = rng.int(0, 4); k > 0; k--) s += alphabet[rng.int(0, alphabet.length - 1)];
      ids.add(s);
    }
    const db = new (openSqlite())(':memory:');
    db.exec('CREATE TABLE t (id TEXT)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (const id of ids) insert.run(id);
    const bySqlite = db.prepare('SELECT id FROM t ORDER BY id').pluck().all();
    db.close();
    expect([...ids].sort(compareIds)).toEqual(bySqlite);
  });
});
