import type { Decision, Intent } from '../core/index.js';
import type { JournalWriteFailureListener } from './journal-faults.js';
import type { JournalState } from './journal-schema.js';

export interface JournalIntentRow {
  readonly refId: string;
  readonly strategy: string;
  readonly kind: Intent['kind'];
  readonly market: string | null;
  readonly side: string | null;
  readonly intent: Intent;
  readonly decision: 'approve' | 'deny';
  readonly denialCode: string | null;
  readonly state: JournalState;
  readonly venueId: string | null;
  readonly status: string | null;
  readonly amountFilled: string;
  readonly averagePrice: string | null;
  readonly message: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface JournalFill {
  readonly fillId: string;
  readonly refId: string;
  readonly orderId: string;
  readonly market: string;
  readonly side: string;
  readonly amount: string;
  readonly price: string;
  readonly commission: string;
  readonly commissionAsset: string;
  readonly at: number;
}

/** Venue facts an update may change (absent fields keep their value). */
export interface FactsUpdate {
  readonly venueId?: string;
  readonly status?: string;
  readonly amountFilled?: string;
  readonly averagePrice?: string;
  readonly message?: string;
}

/**
 * The journal as the engine, executors and reconciler use it. `Journal` keeps it in SQLite (WAL),
 * durable across crashes, for live and paper runs; `MemoryJournal` keeps it in memory for
 * backtests, where nothing survives the process anyway and every microsecond per intent counts.
 */
export interface JournalStore {
  recordDecision(decision: Decision, sent?: { readonly at: number; readonly request: unknown }): void;
  markSent(refId: string, at: number, request: unknown): void;
  update(refId: string, at: number, state: JournalState, facts: FactsUpdate, event: { type: string; data?: unknown }): void;
  recordFill(fill: JournalFill): boolean;
  facts(refId: string): { state: JournalState; venueId: string | null; status: string | null; amountFilled: string } | undefined;
  get(refId: string): JournalIntentRow | undefined;
  byVenueId(venueId: string): JournalIntentRow | undefined;
  active(): JournalIntentRow[];
  intents(filter?: { state?: JournalState; kind?: Intent['kind']; limit?: number }): JournalIntentRow[];
  fills(filter?: { refId?: string; limit?: number }): JournalFill[];
  events(refId: string): Array<{ seq: number; at: number; type: string; data: unknown }>;
  nextSequence(name: string): number;
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  checkpoint(): void;
  integrityCheck(): string;
  /** Hears the first write that fails because the file cannot be written (a journal kept on disk). */
  onWriteFailure?(listener: JournalWriteFailureListener): void;
  close(): void;
}
