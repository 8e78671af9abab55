import type { Decision, Intent } from '../core/index.js';
import { ACTIVE_STATES, type JournalState } from './journal-schema.js';
import type { FactsUpdate, JournalFill, JournalIntentRow, JournalStore } from './journal-store.js';

type Row = { -readonly [K in keyof JournalIntentRow]: JournalIntentRow[K] };
type JournalEvent = { seq: number; at: number; type: string; data: unknown };

/**
 * An intent's record: its row, and its events and fill ids kept with it (not in maps of their own
 * keyed by ref_id), so journaling an event costs no lookup beyond the row's, and forgetting an intent
 * drops them with it.
 */
interface Entry {
  readonly row: Row;
  readonly events: JournalEvent[];
  fillIds: string[] | undefined;
}

const ACTIVE: ReadonlySet<JournalState> = new Set(ACTIVE_STATES);

export interface MemoryJournalOptions {
  /**
   * How many finished intents (denied or done) keep their records (default: all). Older ones are
   * forgotten when `forgetFinished` is called (a backtest calls it as each point begins, when nothing
   * is in flight for them): their rows, events and fills no longer answer lookups, while their ref_ids
   * and fill ids stay taken, so the rules hold for the whole run. A backtest keeps a window: its journal then
   * stays small however many intents the run makes, and the collector stops copying and marking
   * records nothing reads again.
   */
  readonly keepFinished?: number;
}

/**
 * The journal in memory, for backtests: the same records and rules as the SQLite journal (an intent
 * before its request, each fill once by its id, the ref_id never reused) at a fraction of the cost
 * per intent. Memory grows with intents and fills (or stays flat with `keepFinished`), never with
 * price points.
 */
export class MemoryJournal implements JournalStore {
  private readonly rows = new Map<string, Entry>();
  private readonly byVenue = new Map<string, string>();
  private readonly fillsById = new Map<string, JournalFill>();
  /** Events of ref_ids with no row (a request mark or an update for an intent never journaled). */
  private readonly strayEvents = new Map<string, JournalEvent[]>();
  private readonly meta = new Map<string, string>();
  private seq = 0;
  private readonly keepFinished: number;
  /** Finished intents still kept, oldest finished first (only when a window is kept). */
  private readonly finished = new Set<string>();
  /** Forgotten intents' ref_ids (still taken) and final states; their fill ids stay taken too. */
  private readonly forgottenRefs = new Map<string, JournalState>();
  private readonly forgottenFills = new Set<string>();

  constructor(options: MemoryJournalOptions = {}) {
    this.keepFinished = options.keepFinished ?? Number.POSITIVE_INFINITY;
    if (!(this.keepFinished >= 1)) throw new RangeError(`keepFinished must be at least 1, got ${options.keepFinished}`);
  }

  recordDecision(decision: Decision, sent?: { readonly at: number; readonly request: unknown }): void {
    const i = decision.intent;
    if (this.rows.has(i.intentId) || this.forgottenRefs.has(i.intentId)) throw new Error(`ref_id ${i.intentId} is already journaled`);
    const approved = decision.kind === 'approve';
    const row: Row = {
      refId: i.intentId,
      strategy: i.strategy,
      kind: i.kind,
      market: 'market' in i ? i.market : null,
      side: 'side' in i ? i.side : null,
      intent: i,
      decision: decision.kind,
      denialCode: approved ? null : decision.reason.code,
      state: approved ? (sent ? 'sent' : 'pending') : 'denied',
      venueId: null,
      status: null,
      amountFilled: '0',
      averagePrice: null,
      message: approved ? null : decision.reason.message,
      createdAt: decision.at,
      updatedAt: decision.at,
    };
    // events journaled for this ref_id before its row (none in the executors' order) stay first
    const events: JournalEvent[] = this.strayEvents.get(i.intentId) ?? [];
    if (events.length > 0) this.strayEvents.delete(i.intentId);
    events.push({
      seq: ++this.seq,
      at: decision.at,
      type: 'decision',
      data: approved ? APPROVED : { kind: 'deny', reason: decision.reason },
    });
    if (approved && sent) events.push({ seq: ++this.seq, at: sent.at, type: 'request', data: sent.request ?? null });
    this.rows.set(i.intentId, { row, events, fillIds: undefined });
    if (!approved) this.settled(i.intentId, 'denied');
  }

  markSent(refId: string, at: number, request: unknown): void {
    const entry = this.rows.get(refId);
    if (entry) {
      entry.row.state = 'sent';
      entry.row.updatedAt = at;
    }
    this.event(refId, entry, at, 'request', request ?? null);
  }

  update(refId: string, at: number, state: JournalState, facts: FactsUpdate, event: { type: string; data?: unknown }): void {
    const entry = this.rows.get(refId);
    if (entry) {
      const row = entry.row;
      row.state = state;
      if (facts.venueId !== undefined) {
        row.venueId = facts.venueId;
        this.byVenue.set(facts.venueId, refId);
      }
      if (facts.status !== undefined) row.status = facts.status;
      if (facts.amountFilled !== undefined) row.amountFilled = facts.amountFilled;
      if (facts.averagePrice !== undefined) row.averagePrice = facts.averagePrice;
      if (facts.message !== undefined) row.message = facts.message;
      row.updatedAt = at;
    }
    this.event(refId, entry, at, event.type, event.data ?? null);
    if (entry) this.settled(refId, state);
  }

  recordFill(fill: JournalFill): boolean {
    if (this.fillsById.has(fill.fillId) || this.forgottenFills.has(fill.fillId)) return false;
    this.fillsById.set(fill.fillId, { ...fill });
    const entry = this.rows.get(fill.refId);
    if (entry) (entry.fillIds ??= []).push(fill.fillId);
    this.event(fill.refId, entry, fill.at, 'fill', fill);
    return true;
  }

  /** A forgotten intent still answers its final state (e.g. a cancel of it is refused as closed). */
  facts(refId: string): { state: JournalState; venueId: string | null; status: string | null; amountFilled: string } | undefined {
    const e = this.rows.get(refId);
    if (e === undefined) {
      const state = this.forgottenRefs.get(refId);
      return state && { state, venueId: null, status: null, amountFilled: '0' };
    }
    const r = e.row;
    return { state: r.state, venueId: r.venueId, status: r.status, amountFilled: r.amountFilled };
  }

  get(refId: string): JournalIntentRow | undefined {
    const e = this.rows.get(refId);
    return e && { ...e.row };
  }

  byVenueId(venueId: string): JournalIntentRow | undefined {
    const ref = this.byVenue.get(venueId);
    return ref === undefined ? undefined : this.get(ref);
  }

  active(): JournalIntentRow[] {
    return [...this.rows.values()]
      .filter((e) => ACTIVE.has(e.row.state))
      .map((e) => ({ ...e.row }))
      .sort(oldestFirst);
  }

  intents(filter: { state?: JournalState; kind?: Intent['kind']; limit?: number } = {}): JournalIntentRow[] {
    return [...this.rows.values()]
      .map((e) => e.row)
      .filter((r) => (filter.state === undefined || r.state === filter.state) && (filter.kind === undefined || r.kind === filter.kind))
      .sort((a, b) => oldestFirst(b, a))
      .slice(0, filter.limit ?? Number.MAX_SAFE_INTEGER)
      .map((r) => ({ ...r }));
  }

  fills(filter: { refId?: string; limit?: number } = {}): JournalFill[] {
    return [...this.fillsById.values()]
      .filter((f) => filter.refId === undefined || f.refId === filter.refId)
      .sort((a, b) => a.at - b.at || (a.fillId < b.fillId ? -1 : a.fillId > b.fillId ? 1 : 0))
      .slice(0, filter.limit ?? Number.MAX_SAFE_INTEGER);
  }

  events(refId: string): Array<{ seq: number; at: number; type: string; data: unknown }> {
    return [...(this.rows.get(refId)?.events ?? this.strayEvents.get(refId) ?? [])];
  }

  nextSequence(name: string): number {
    const next = Number(this.meta.get(`seq:${name}`) ?? '0') + 1;
    this.meta.set(`seq:${name}`, String(next));
    return next;
  }

  getMeta(key: string): string | undefined {
    return this.meta.get(key);
  }

  setMeta(key: string, value: string): void {
    this.meta.set(key, value);
  }

  checkpoint(): void {
    // nothing to move: the records are already where they stay
  }

  integrityCheck(): string {
    for (const [venueId, ref] of this.byVenue)
      if (this.rows.get(ref)?.row.venueId !== venueId) return `venue id ${venueId} points at ${ref}, which does not carry it`;
    for (const f of this.fillsById.values()) if (!this.rows.has(f.refId)) return `fill ${f.fillId} belongs to unknown ref_id ${f.refId}`;
    return 'ok';
  }

  close(): void {
    // memory is released with the object
  }

  /**
   * Forgets the finished intents beyond the window, oldest finished first. Not done as an intent
   * finishes: its fills may still be on their way (a venue reports an order's status and its fills
   * apart), and a fill whose row is gone could not be journaled nor reported.
   */
  forgetFinished(): void {
    while (this.finished.size > this.keepFinished) {
      const oldest = this.finished.values().next().value as string;
      this.finished.delete(oldest);
      this.forget(oldest);
    }
  }

  /** Tracks the finished intents, oldest finished first (only when a window is kept). */
  private settled(refId: string, state: JournalState): void {
    if (this.keepFinished === Number.POSITIVE_INFINITY) return;
    this.finished.delete(refId);
    if (!ACTIVE.has(state)) this.finished.add(refId);
  }

  private forget(refId: string): void {
    const entry = this.rows.get(refId);
    const row = entry?.row;
    if (row !== undefined && row.venueId !== null && this.byVenue.get(row.venueId) === refId) this.byVenue.delete(row.venueId);
    for (const fillId of entry?.fillIds ?? []) {
      this.fillsById.delete(fillId);
      this.forgottenFills.add(fillId);
    }
    this.forgottenRefs.set(refId, row?.state ?? 'done');
    this.rows.delete(refId);
    this.strayEvents.delete(refId);
  }

  /** Appends an event to the intent's record (`entry`, its row's, when it has one). */
  private event(refId: string, entry: Entry | undefined, at: number, type: string, data: unknown): void {
    if (entry !== undefined) {
      entry.events.push({ seq: ++this.seq, at, type, data });
      return;
    }
    if (this.forgottenRefs.has(refId)) return;
    let list = this.strayEvents.get(refId);
    if (!list) this.strayEvents.set(refId, (list = []));
    list.push({ seq: ++this.seq, at, type, data });
  }
}

/** The data of every approval's decision event (it says nothing more than that): one object for all. */
const APPROVED = Object.freeze({ kind: 'approve' });

function oldestFirst(a: JournalIntentRow, b: JournalIntentRow): number {
  return a.createdAt - b.createdAt || (a.refId < b.refId ? -1 : a.refId > b.refId ? 1 : 0);
}
