import type Database from 'better-sqlite3';
import type { Decision, Intent } from '../core/index.js';
import { ACTIVE_STATES, JOURNAL_DDL, JOURNAL_SCHEMA_VERSION, type JournalState } from './journal-schema.js';
import { isJournalFileFailure, journalWriteFailure, type JournalWriteFailure, type JournalWriteFailureListener } from './journal-faults.js';
import type { JournalLock } from './journal-lock.js';
import type { FactsUpdate, JournalFill, JournalIntentRow, JournalStore } from './journal-store.js';
import {
  POSITIONS_SNAPSHOT_KEY,
  positionState,
  positionsOf,
  snapshotText,
  type PositionFillRow,
  type PositionQuoteRow,
  type PositionSource,
  type PositionState,
} from './journal-positions.js';
import { holdingFill, positionsFromFills, type JournalHolding, type StrategyFill, type StrategyPosition } from './journal-trades.js';
import { openSqlite } from './sqlite.js';

export type { JournalFill, JournalIntentRow, JournalStore } from './journal-store.js';

/**
 * An intent's exit reason from its JSON payload: parsed only when the text names one (most intents
 * are buys without), so reading every fill's strategy does not parse every payload.
 */
const EXIT_REASON = (payload: string): string =>
  `CASE WHEN instr(${payload}, '"exitReason"') > 0 THEN json_extract(${payload}, '$.exitReason') END`;

/** The quote executions that filled, as fills of their strategy (`strategyFills`, positions). */
const QUOTE_FILLS = `FROM intents WHERE kind = 'execute-quote' AND state = 'done' AND average_price IS NOT NULL AND amount_filled NOT IN ('0', '')
  ORDER BY updated_at, ref_id`;

/** The balances the config assigned to a strategy (strategies[].holdings), as fills of their strategy. */
const HOLDINGS = `SELECT key, value FROM meta WHERE key LIKE 'holding/%' ORDER BY key`;

/**
 * Items (fills, quote executions, holdings) a checkpoint applies to the positions snapshot at most: a
 * journal with more to apply (none yet, or one made stale by a fill journaled late) gets its snapshot
 * from the writer's close, so a checkpoint between orders stays short (about 5 µs an item).
 */
const CHECKPOINT_POSITIONS_WORK = 20_000;

/** How much of the file a reader maps into memory (address space, not memory: pages load as they are read). */
const READER_MMAP_BYTES = 1 << 30;

/** The decision event's data of an approval (JSON.stringify({ kind: 'approve' }), written once). */
const APPROVED = '{"kind":"approve"}';

/** An intents row as SQLite returns it (readers of a journal file share it). */
export interface RawIntentRow {
  ref_id: string;
  strategy: string;
  kind: Intent['kind'];
  market: string | null;
  side: string | null;
  payload: string;
  decision: 'approve' | 'deny';
  denial_code: string | null;
  state: JournalState;
  venue_id: string | null;
  status: string | null;
  amount_filled: string;
  average_price: string | null;
  message: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * The write-ahead journal (SQLite, WAL, synchronous=NORMAL). An intent and its decision are written
 * before the first request; then every request, response, status change and fill. Each method is
 * one transaction, so a crash never leaves half a record.
 */
export class Journal implements JournalStore {
  private readonly db: Database.Database;
  private readonly stmts;
  /** The hot writes, each one transaction, wrapped once here rather than at every call. */
  private readonly tx;
  private readonly lock: Pick<JournalLock, 'release'> | undefined;
  /** Opened to read only (the journal views): no schema, no write, no positions snapshot. */
  private readonly readonly: boolean;
  /** An in-memory journal: nobody reads it after this process, so it keeps no positions snapshot. */
  private readonly memory: boolean;
  private positionStmts:
    | Record<
        'lastFillRow' | 'lastIntentRow' | 'fillIdAt' | 'fillRows' | 'fillRowsAfter' | 'adopted' | 'fillsAfter' | 'quotes' | 'holdings',
        Database.Statement
      >
    | undefined;
  private failure: JournalWriteFailure | undefined;
  private readonly failureListeners: JournalWriteFailureListener[] = [];
  /** TEST-ONLY (see `journalFullAfterFrom`): writes left before the file may no longer grow. */
  private writesBeforeFull: number | undefined;

  /**
   * `lock`: the writer lock (see `lockJournal`) a writer holds while it has the journal open; released
   * on close, after the positions snapshot is brought up to date. `readonly`: the file is only read
   * (an existing journal; nothing is created or written, not even by close). `fullAfterWrites`
   * (TEST-ONLY): after that many writes the file may no longer grow.
   */
  constructor(
    file: string,
    options: { readonly lock?: Pick<JournalLock, 'release'>; readonly readonly?: boolean; readonly fullAfterWrites?: number } = {},
  ) {
    this.lock = options.lock;
    this.readonly = options.readonly === true;
    this.memory = file === ':memory:' || file === '';
    this.writesBeforeFull = options.fullAfterWrites;
    this.db = new (openSqlite())(file, this.readonly ? { readonly: true, fileMustExist: true } : {});
    // a reader maps the file rather than reading it page by page: a view of 10,000 fills looks up each
    // one's intent, about 18 ms read and 7 mapped (a journal's file never shrinks, so the map stays valid)
    if (this.readonly) this.db.pragma(`mmap_size = ${READER_MMAP_BYTES}`);
    else {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('foreign_keys = ON');
      this.db.pragma('wal_autocheckpoint = 0');
      this.db.exec(JOURNAL_DDL);
      this.db.prepare('INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)').run('schema_version', String(JOURNAL_SCHEMA_VERSION));
    }
    this.stmts = {
      insertIntent: this.db.prepare(
        `INSERT INTO intents(ref_id, strategy, kind, market, side, payload, decision, denial_code, message, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      event: this.db.prepare('INSERT INTO events(ref_id, at, type, data) VALUES (?, ?, ?, ?)'),
      setState: this.db.prepare('UPDATE intents SET state = ?, updated_at = ? WHERE ref_id = ?'),
      update: this.db.prepare(
        `UPDATE intents SET state = @state, venue_id = COALESCE(@venue_id, venue_id), status = COALESCE(@status, status),
           amount_filled = COALESCE(@amount_filled, amount_filled), average_price = COALESCE(@average_price, average_price),
           message = COALESCE(@message, message), updated_at = @at WHERE ref_id = @ref_id`,
      ),
      insertFill: this.db.prepare(
        `INSERT OR IGNORE INTO fills(fill_id, ref_id, order_id, market, side, amount, price, commission, commission_asset, at)
         VALUES (@fillId, @refId, @orderId, @market, @side, @amount, @price, @commission, @commissionAsset, @at)`,
      ),
      get: this.db.prepare('SELECT * FROM intents WHERE ref_id = ?'),
      facts: this.db.prepare('SELECT state, venue_id, status, amount_filled FROM intents WHERE ref_id = ?'),
      byVenue: this.db.prepare('SELECT * FROM intents WHERE venue_id = ?'),
      active: this.db.prepare(
        `SELECT * FROM intents WHERE state IN (${ACTIVE_STATES.map(() => '?').join(',')}) ORDER BY created_at, ref_id`,
      ),
      metaGet: this.db.prepare('SELECT value FROM meta WHERE key = ?'),
      metaSet: this.db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
    };
    const st = this.stmts;
    this.tx = {
      /**
       * An intent with its risk decision, before any request. With `sent`, the same transaction also
       * records that the request is about to go out, saving a commit on the hot path of orders.
       */
      recordDecision: this.db.transaction((decision: Decision, sent?: { readonly at: number; readonly request: unknown }) => {
        const i = decision.intent;
        const approved = decision.kind === 'approve';
        // positional parameters: binding by name costs a lookup per parameter on every order
        st.insertIntent.run(
          i.intentId,
          i.strategy,
          i.kind,
          'market' in i ? i.market : null,
          'side' in i ? i.side : null,
          JSON.stringify(i),
          decision.kind,
          approved ? null : decision.reason.code,
          // a denial's reason is what `tradeloop orders` shows beside its code
          approved ? null : decision.reason.message,
          approved ? (sent ? 'sent' : 'pending') : 'denied',
          decision.at,
          decision.at,
        );
        st.event.run(i.intentId, decision.at, 'decision', approved ? APPROVED : JSON.stringify({ kind: 'deny', reason: decision.reason }));
        if (approved && sent) st.event.run(i.intentId, sent.at, 'request', JSON.stringify(sent.request ?? null));
      }),
      markSent: this.db.transaction((refId: string, at: number, request: unknown) => {
        st.setState.run('sent', at, refId);
        st.event.run(refId, at, 'request', JSON.stringify(request ?? null));
      }),
      update: this.db.transaction(
        (refId: string, at: number, state: JournalState, facts: FactsUpdate, event: { type: string; data?: unknown }) => {
          st.update.run({
            ref_id: refId,
            at,
            state,
            venue_id: facts.venueId ?? null,
            status: facts.status ?? null,
            amount_filled: facts.amountFilled ?? null,
            average_price: facts.averagePrice ?? null,
            message: facts.message ?? null,
          });
          st.event.run(refId, at, event.type, JSON.stringify(event.data ?? null));
        },
      ),
      recordFill: this.db.transaction((fill: JournalFill): boolean => {
        const inserted = st.insertFill.run(fill).changes > 0;
        if (inserted) st.event.run(fill.refId, fill.at, 'fill', JSON.stringify(fill));
        return inserted;
      }),
    };
  }

  /**
   * Records an intent with its risk decision, before any request (one transaction). With `sent`,
   * the same transaction also records that the request is about to go out, saving a commit on the
   * hot path of orders.
   */
  recordDecision(decision: Decision, sent?: { readonly at: number; readonly request: unknown }): void {
    this.beforeWrite();
    try {
      this.tx.recordDecision(decision, sent);
    } catch (e) {
      throw this.failed(e, 'recordDecision');
    }
  }

  /** The venue-facing facts of an intent, without decoding its payload (cheap, for hot paths). */
  facts(refId: string): { state: JournalState; venueId: string | null; status: string | null; amountFilled: string } | undefined {
    const row = this.stmts.facts.get(refId) as
      { state: JournalState; venue_id: string | null; status: string | null; amount_filled: string } | undefined;
    return row && { state: row.state, venueId: row.venue_id, status: row.status, amountFilled: row.amount_filled };
  }

  /**
   * Moves the write-ahead log into the database file. Automatic checkpoints are off so that no
   * order waits behind one; the runner calls this between orders. First it brings the positions
   * snapshot up to date, when that is a short piece of work (see CHECKPOINT_POSITIONS_WORK).
   */
  checkpoint(): void {
    this.storePositions(CHECKPOINT_POSITIONS_WORK);
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)');
    } catch (e) {
      throw this.failed(e, 'checkpoint');
    }
  }

  /** Marks that a request for `refId` is about to be sent (its outcome becomes uncertain). */
  markSent(refId: string, at: number, request: unknown): void {
    this.beforeWrite();
    try {
      this.tx.markSent(refId, at, request);
    } catch (e) {
      throw this.failed(e, 'markSent');
    }
  }

  /** Updates state and venue facts of an intent and logs the event that caused it. */
  update(refId: string, at: number, state: JournalState, facts: FactsUpdate, event: { type: string; data?: unknown }): void {
    this.beforeWrite();
    try {
      this.tx.update(refId, at, state, facts, event);
    } catch (e) {
      throw this.failed(e, 'update');
    }
  }

  /** Records a fill once; returns false when this fill id was already journaled. */
  recordFill(fill: JournalFill): boolean {
    this.beforeWrite();
    try {
      return this.tx.recordFill(fill);
    } catch (e) {
      throw this.failed(e, 'recordFill');
    }
  }

  get(refId: string): JournalIntentRow | undefined {
    const row = this.stmts.get.get(refId) as RawIntentRow | undefined;
    return row && toRow(row);
  }

  byVenueId(venueId: string): JournalIntentRow | undefined {
    const row = this.stmts.byVenue.get(venueId) as RawIntentRow | undefined;
    return row && toRow(row);
  }

  /** Intents that still need attention: pending, sent, open or unresolved. */
  active(): JournalIntentRow[] {
    return (this.stmts.active.all(...ACTIVE_STATES) as RawIntentRow[]).map(toRow);
  }

  /** Intents, newest first, optionally filtered. */
  intents(filter: { state?: JournalState; kind?: Intent['kind']; limit?: number } = {}): JournalIntentRow[] {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.state) {
      where.push('state = ?');
      args.push(filter.state);
    }
    if (filter.kind) {
      where.push('kind = ?');
      args.push(filter.kind);
    }
    const sql = `SELECT * FROM intents ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, ref_id DESC LIMIT ?`;
    return (this.db.prepare(sql).all(...args, filter.limit ?? 1_000_000) as RawIntentRow[]).map(toRow);
  }

  fills(filter: { refId?: string; limit?: number } = {}): JournalFill[] {
    const sql = `SELECT fill_id AS fillId, ref_id AS refId, order_id AS orderId, market, side, amount, price, commission,
      commission_asset AS commissionAsset, at FROM fills ${filter.refId ? 'WHERE ref_id = ?' : ''} ORDER BY at, fill_id LIMIT ?`;
    const args: unknown[] = filter.refId ? [filter.refId] : [];
    return this.db.prepare(sql).all(...args, filter.limit ?? 1_000_000) as JournalFill[];
  }

  /**
   * Every fill with the strategy that made it, oldest first: order fills, and quote executions that
   * filled (their amount and price from the intent's row; the quote's price carries its spread, so
   * no commission), and the balances the config assigned to a strategy (see holdingFill). For round
   * trips and positions per strategy.
   */
  strategyFills(): StrategyFill[] {
    const orders = this.db
      .prepare(
        `SELECT i.strategy AS strategy, f.ref_id AS refId, f.market AS market, f.side AS side, f.amount AS amount, f.price AS price,
           f.commission AS commission, f.commission_asset AS commissionAsset, f.at AS at,
           ${EXIT_REASON('i.payload')} AS exitReason
         FROM fills f JOIN intents i ON i.ref_id = f.ref_id ORDER BY f.at, f.fill_id`,
      )
      .all() as StrategyFill[];
    const quotes = (
      this.db
        .prepare(
          `SELECT strategy, ref_id, market, side, amount_filled, average_price, updated_at, ${EXIT_REASON('payload')} AS exit_reason ${QUOTE_FILLS}`,
        )
        .all() as Array<{
        strategy: string;
        ref_id: string;
        market: string;
        side: string;
        amount_filled: string;
        average_price: string;
        updated_at: number;
        exit_reason: string | null;
      }>
    ).map((r) => ({
      strategy: r.strategy,
      refId: r.ref_id,
      market: r.market,
      side: r.side,
      amount: r.amount_filled,
      price: r.average_price,
      commission: '0',
      commissionAsset: '',
      at: r.updated_at,
      exitReason: r.exit_reason,
    }));
    // balances the config assigned to a strategy (strategies[].holdings): an entry of its position
    const holdings = (this.db.prepare(HOLDINGS).all() as Array<{ key: string; value: string }>).flatMap(
      (r) => holdingFill(r.key, JSON.parse(r.value) as JournalHolding) ?? [],
    );
    return [...holdings, ...orders, ...quotes].sort((a, b) => a.at - b.at);
  }

  /**
   * Each strategy's position per market: what `positionsFromFills(this.strategyFills())` gives, read
   * quickly (journal-positions.ts): the positions snapshot the writer keeps and the items after it, or
   * every item, in exact units; the Decimal path itself when an item holds a value the units cannot
   * read. Only reads.
   */
  positions(): StrategyPosition[] {
    let state: PositionState | undefined;
    try {
      state = this.positionState();
    } catch {
      state = undefined; // whatever it was, the Decimal path meets it too, and says it as before
    }
    return state === undefined ? positionsFromFills(this.strategyFills()) : positionsOf(state);
  }

  /** The books behind `positions()` and what they were made from (undefined: the Decimal path's to compute), in one read transaction. */
  positionState(): PositionState | undefined {
    return this.db.transaction(() => positionState(this.positionSource()))();
  }

  /**
   * The writer's part: stores the positions snapshot when it changed. With `maxWork`, only when at
   * most that many items are to be applied. A snapshot is a shortcut that readers check, so a failure
   * here leaves the last one (or none) and is not the journal's failure.
   */
  private storePositions(maxWork?: number): void {
    if (this.readonly || this.memory || this.failure !== undefined || !this.db.open) return;
    try {
      this.db
        .transaction(() => {
          const src = this.positionSource();
          const state = positionState(src, maxWork === undefined ? {} : { maxWork });
          if (state === undefined) return;
          const text = snapshotText(state);
          if (text !== src.snapshot) this.stmts.metaSet.run(POSITIONS_SNAPSHOT_KEY, text);
        })
        .immediate();
    } catch {
      // readers find the snapshot stale or missing and compute the books from the fills
    }
  }

  private positionSource(): PositionSource {
    const s = (this.positionStmts ??= {
      lastFillRow: this.db.prepare('SELECT coalesce(max(rowid), 0) FROM fills').pluck(),
      lastIntentRow: this.db.prepare('SELECT coalesce(max(rowid), 0) FROM intents').pluck(),
      fillIdAt: this.db.prepare('SELECT fill_id FROM fills WHERE rowid = ?').pluck(),
      // a count of the whole table reads its smallest index (about 0.2 ms for 100,000 fills, and 10 cold)
      fillRows: this.db.prepare('SELECT count(*) FROM fills').pluck(),
      fillRowsAfter: this.db.prepare('SELECT count(*) FROM fills WHERE rowid > ?').pluck(),
      // CROSS JOIN keeps the intents outside: only those after the rowid, each looked up in fills_ref
      adopted: this.db
        .prepare('SELECT count(*) FROM intents i CROSS JOIN fills f ON f.ref_id = i.ref_id WHERE i.rowid > ? AND f.rowid <= ?')
        .pluck(),
      fillsAfter: this.db
        .prepare(
          `SELECT f.rowid, f.fill_id, i.strategy, f.market, f.side, f.amount, f.price, f.commission, f.commission_asset, f.at
           FROM fills f JOIN intents i ON i.ref_id = f.ref_id WHERE f.rowid > ? ORDER BY f.at, f.fill_id`,
        )
        .raw(),
      quotes: this.db.prepare(`SELECT ref_id, strategy, market, side, amount_filled, average_price, updated_at ${QUOTE_FILLS}`).raw(),
      holdings: this.db.prepare(HOLDINGS).raw(),
    });
    return {
      snapshot: this.getMeta(POSITIONS_SNAPSHOT_KEY),
      lastFillRow: () => s.lastFillRow.get() as number,
      lastIntentRow: () => s.lastIntentRow.get() as number,
      fillIdAt: (rowid) => s.fillIdAt.get(rowid) as string | undefined,
      fillRows: () => s.fillRows.get() as number,
      fillRowsAfter: (rowid) => s.fillRowsAfter.get(rowid) as number,
      adopted: (intentsAfter, fillsUpTo) => s.adopted.get(intentsAfter, fillsUpTo) as number,
      fillsAfter: (rowid) => s.fillsAfter.iterate(rowid) as IterableIterator<PositionFillRow>,
      quotes: () => s.quotes.all() as PositionQuoteRow[],
      holdings: () => s.holdings.all() as Array<[string, string]>,
    };
  }

  events(refId: string): Array<{ seq: number; at: number; type: string; data: unknown }> {
    const rows = this.db.prepare('SELECT seq, at, type, data FROM events WHERE ref_id = ? ORDER BY seq').all(refId) as Array<{
      seq: number;
      at: number;
      type: string;
      data: string;
    }>;
    return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as unknown }));
  }

  /** Next value of a persistent counter (intent sequence numbers survive restarts). */
  nextSequence(name: string): number {
    this.beforeWrite();
    try {
      return this.db.transaction(() => {
        const row = this.stmts.metaGet.get(`seq:${name}`) as { value: string } | undefined;
        const next = (row ? Number(row.value) : 0) + 1;
        this.stmts.metaSet.run(`seq:${name}`, String(next));
        return next;
      })();
    } catch (e) {
      throw this.failed(e, 'nextSequence');
    }
  }

  getMeta(key: string): string | undefined {
    return (this.stmts.metaGet.get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.beforeWrite();
    try {
      this.stmts.metaSet.run(key, value);
    } catch (e) {
      throw this.failed(e, 'setMeta');
    }
  }

  /** SQLite's own integrity check: "ok" when the file is sound. */
  integrityCheck(): string {
    return String(this.db.pragma('integrity_check', { simple: true }));
  }

  /**
   * SQLite's quick check (every page read, indexes not matched with their tables): "ok" when sound,
   * else its first finding. A damaged page makes the check itself fail: its error is the finding then.
   */
  quickCheck(): string {
    try {
      return String(this.db.pragma('quick_check', { simple: true }));
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  /**
   * Calls `listener` once with the first write that fails because the file cannot be written (a
   * full disk, an I/O error, a read-only file); at once when one has failed already. The writer still
   * gets the error.
   */
  onWriteFailure(listener: JournalWriteFailureListener): void {
    if (this.failure) listener(this.failure);
    else this.failureListeners.push(listener);
  }

  /** The first write that failed because the file cannot be written, if any. */
  get writeFailure(): JournalWriteFailure | undefined {
    return this.failure;
  }

  private failed(e: unknown, operation: string): unknown {
    if (this.failure || !isJournalFileFailure(e)) return e;
    this.failure = journalWriteFailure(e, operation);
    for (const l of this.failureListeners.splice(0)) l(this.failure);
    return e;
  }

  /** TEST-ONLY fault (see `journalFullAfterFrom`); one comparison per write when unset. */
  private beforeWrite(): void {
    if (this.writesBeforeFull === undefined) return;
    if (this.writesBeforeFull-- > 0) return;
    this.writesBeforeFull = undefined;
    const pages = Number(this.db.pragma('page_count', { simple: true }));
    this.db.pragma(`max_page_count = ${pages}`);
  }

  /** Closes the file; the writer holding the lock first brings the positions snapshot up to date, whatever the work. */
  close(): void {
    if (this.db.open) {
      if (this.lock !== undefined) this.storePositions();
      this.db.close();
    }
    this.lock?.release();
  }
}

function toRow(r: RawIntentRow): JournalIntentRow {
  return {
    refId: r.ref_id,
    strategy: r.strategy,
    kind: r.kind,
    market: r.market,
    side: r.side,
    intent: JSON.parse(r.payload) as Intent,
    decision: r.decision,
    denialCode: r.denial_code,
    state: r.state,
    venueId: r.venue_id,
    status: r.status,
    amountFilled: r.amount_filled,
    averagePrice: r.average_price,
    message: r.message,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
