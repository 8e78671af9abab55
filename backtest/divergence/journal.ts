/**
 * The decisions of a journal as the divergence report compares them: each intent with its risk
 * decision and the fills it got, per strategy in the order the strategy made them. The live run's
 * journal is opened read-only (a running bot may hold it; the report never writes to it); the
 * replay's own journal is read the same way, so both sides go through one reader.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { D, InputError, type Dec, type Intent } from '../../src/core/index.js';
import type { RawIntentRow } from '../../src/exec/journal.js';

/** One fill of a decision: price, amount, fee (in `feeAsset`) and time. */
export interface FillRecord {
  readonly at: number;
  readonly price: Dec;
  readonly amount: Dec;
  readonly fee: Dec;
  readonly feeAsset: string;
}

/** One intent with its risk decision and what became of it. */
export interface DecisionRecord {
  readonly refId: string;
  readonly strategy: string;
  /** 1-based: the n-th decision of its strategy. */
  readonly seq: number;
  readonly at: number;
  readonly kind: Intent['kind'];
  readonly market?: string;
  readonly side?: string;
  readonly intent: Intent;
  readonly decision: 'approve' | 'deny';
  readonly denialCode?: string;
  readonly fills: readonly FillRecord[];
}

type IntentRow = Omit<RawIntentRow, 'state' | 'venue_id' | 'status' | 'message'> & { readonly state: string };

interface FillRow {
  ref_id: string;
  amount: string;
  price: string;
  commission: string;
  commission_asset: string;
  at: number;
}

/** Which decisions to read: those made from `from` to `to` (epoch ms, inclusive). */
export interface JournalWindow {
  readonly from: number;
  readonly to: number;
}

/**
 * Reads the decisions of a journal file made within `window`, oldest first, numbered per strategy.
 * Refuses, in our words, a file that is missing or is not a tradeloop journal.
 */
export function readJournalDecisions(file: string, window: JournalWindow, flag = '--journal'): DecisionRecord[] {
  if (!existsSync(file)) throw new InputError(flag, `${file} does not exist: give the journal.path file of the recorded run`);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new InputError(
      flag,
      `${file} cannot be opened as a journal (${(err as Error).message}): give the journal.path file of the recorded run`,
    );
  }
  try {
    let intents: IntentRow[];
    let fills: FillRow[];
    try {
      intents = db
        .prepare('SELECT * FROM intents WHERE created_at >= ? AND created_at <= ? ORDER BY created_at, rowid')
        .all(window.from, window.to) as IntentRow[];
      fills = db
        .prepare('SELECT ref_id, amount, price, commission, commission_asset, at FROM fills ORDER BY at, fill_id')
        .all() as FillRow[];
    } catch (err) {
      throw new InputError(
        flag,
        `${file} is not a tradeloop journal (${(err as Error).message}): give the journal.path file of the recorded run`,
      );
    }
    return toRecords(file, intents, fills, flag);
  } finally {
    db.close();
  }
}

function toRecords(file: string, intents: readonly IntentRow[], fills: readonly FillRow[], flag: string): DecisionRecord[] {
  const byRef = new Map<string, FillRecord[]>();
  for (const f of fills) {
    const list = byRef.get(f.ref_id) ?? [];
    list.push({ at: f.at, price: new D(f.price), amount: new D(f.amount), fee: new D(f.commission), feeAsset: f.commission_asset });
    byRef.set(f.ref_id, list);
  }
  const seqs = new Map<string, number>();
  return intents.map((r): DecisionRecord => {
    let intent: Intent;
    try {
      intent = JSON.parse(r.payload) as Intent;
    } catch {
      throw new InputError(flag, `${file}: intent ${r.ref_id} has a damaged payload; the journal was edited or is broken`);
    }
    const seq = (seqs.get(r.strategy) ?? 0) + 1;
    seqs.set(r.strategy, seq);
    return {
      refId: r.ref_id,
      strategy: r.strategy,
      seq,
      at: r.created_at,
      kind: r.kind,
      ...(r.market !== null && { market: r.market }),
      ...(r.side !== null && { side: r.side }),
      intent,
      decision: r.decision,
      ...(r.denial_code !== null && { denialCode: r.denial_code }),
      fills: byRef.get(r.ref_id) ?? quoteFill(r),
    };
  });
}

/** A settled quote execution has no fill rows: its amount and price are on the intent's row (no fee). */
function quoteFill(r: IntentRow): FillRecord[] {
  if (
    r.kind !== 'execute-quote' ||
    r.state !== 'done' ||
    r.average_price === null ||
    r.amount_filled === '' ||
    new D(r.amount_filled).isZero()
  )
    return [];
  return [{ at: r.updated_at, price: new D(r.average_price), amount: new D(r.amount_filled), fee: new D(0), feeAsset: '' }];
}
