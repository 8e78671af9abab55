import { D } from '../core/index.js';
import { VenueNotFoundError, type VenueFill } from '../venue/venue.js';
import { errorMessage, pollFailed, type ExecContext } from './exec-context.js';
import type { JournalIntentRow } from './journal-store.js';

/** Fills held for orders not journaled yet; the oldest are dropped beyond this. */
const MAX_HELD = 10_000;
/** Orders whose venue ref_id is remembered; beyond this the oldest are read again from the venue when needed. */
const MAX_CONFIRMED = 1_000_000;

/**
 * Follows the venue's fills and records each exactly once in the journal (the fill id is the key),
 * emitting a `filled` report for each new one. A fill of an order the journal does not know yet (an
 * IOC order filled at once whose answer was lost: it is journaled only when found by ref_id) is
 * held and tried again on every later `ingest`, since a push stream delivers each fill only once.
 * Fills of orders placed by someone else on the profile stay held until pushed out (bounded).
 */
export class FillTracker {
  private sinceMs: number;
  private readonly held = new Map<string, VenueFill>();
  /** Venue order id → the ref_id the venue gave for it (from the order itself, never the journal). */
  private readonly refs = new Map<string, string>();
  /** Order ids whose ref_id is to be read from the venue at the next poll. */
  private readonly toConfirm = new Set<string>();
  /** Fills refused as another order's (logged once each). */
  private readonly refused = new Set<string>();
  private confirming: Promise<void> | undefined;

  constructor(
    private readonly ctx: ExecContext,
    startMs: number,
  ) {
    this.sinceMs = startMs;
  }

  /** Polls new fills; returns how many were new. Overlaps the previous window by design. */
  async poll(): Promise<number> {
    let fills: readonly VenueFill[];
    try {
      fills = await this.ctx.venue.listFills(this.sinceMs);
    } catch (e) {
      pollFailed(this.ctx, e, {}, `fill poll failed: ${errorMessage(e)}`);
      return 0;
    }
    for (const f of fills) if (!this.refs.has(f.orderId) && this.ctx.journal.byVenueId(f.orderId)) this.toConfirm.add(f.orderId);
    await this.confirmPending();
    return this.ingest(fills);
  }

  /**
   * Records the ref_id the venue gave order `orderId` (the order executor learns it from the order
   * itself). Only fills of orders whose ref_id is known this way are journaled, under that ref_id.
   */
  confirm(orderId: string, refId: string): void {
    this.refs.set(orderId, refId);
    this.toConfirm.delete(orderId);
    if (this.refs.size > MAX_CONFIRMED) this.refs.delete(this.refs.keys().next().value as string);
  }

  /**
   * Reads the orders of fills whose ref_id is not known yet (orders of an earlier run, after a
   * restart), then journals the fills held for them. A push stream's fills start it from `ingest`.
   */
  private confirmSoon(): void {
    if (this.confirming || this.toConfirm.size === 0) return;
    this.confirming = this.confirmPending().then((confirmed) => {
      this.confirming = undefined;
      // only after progress: an order that cannot be read is tried again by the next ingest or poll
      if (confirmed > 0 && this.held.size) this.ingest([]);
    });
  }

  /** Reads each order to confirm; returns how many ref_ids were learnt. */
  private async confirmPending(): Promise<number> {
    let confirmed = 0;
    for (const orderId of [...this.toConfirm]) {
      try {
        this.confirm(orderId, (await this.ctx.venue.getOrder(orderId)).refId);
        confirmed++;
      } catch (e) {
        this.toConfirm.delete(orderId);
        // the venue does not know the order the journal names: no fill of it is ours to journal
        if (e instanceof VenueNotFoundError) this.confirm(orderId, '');
        else this.ctx.log?.warn(`cannot read order ${orderId} to attribute its fills (tried again later): ${errorMessage(e)}`);
      }
    }
    return confirmed;
  }

  /** Records fills (from a poll or a push) and any held ones; returns how many were new. */
  ingest(fills: readonly VenueFill[]): number {
    let added = 0;
    const all = this.held.size ? [...this.held.values(), ...fills] : fills;
    for (const f of all) {
      const row = this.ownerOf(f);
      if (row === undefined) {
        this.hold(f);
        continue;
      }
      this.held.delete(f.fillId);
      if (row === null) continue;
      // each decimal written once (or given as text by the venue): the journal row and the report carry the same strings
      const text = f.text;
      const amount = text === undefined ? f.amount.toFixed() : text.amount;
      const price = text === undefined ? f.price.toFixed() : text.price;
      const commission = text === undefined ? f.commission.toFixed() : text.commission;
      const fresh = this.ctx.journal.recordFill({
        fillId: f.fillId,
        refId: row.refId,
        orderId: f.orderId,
        market: f.market,
        side: f.side,
        amount,
        price,
        commission,
        commissionAsset: f.commissionAsset,
        at: f.at,
      });
      if (!fresh) continue;
      this.ctx.crash?.('fill');
      added++;
      this.ctx.emit({
        kind: 'filled',
        refId: row.refId,
        orderId: f.orderId,
        fillId: f.fillId,
        market: f.market,
        side: f.side,
        amount,
        price,
        commission,
        commissionAsset: f.commissionAsset,
        at: f.at,
        orderDone: this.completes(row.refId, amount),
      });
      // keep a small overlap: fills at the same millisecond may arrive in a later poll
      if (f.at - 1 > this.sinceMs) this.sinceMs = f.at - 1;
    }
    this.confirmSoon();
    return added;
  }

  /**
   * The journal row a fill belongs to: the row of the ref_id the venue gives the fill's order, when
   * that row names this venue order. Undefined to hold the fill (its order is not journaled yet, or
   * its ref_id is still to be read from the venue); null when it is not ours to journal (the row
   * found by its venue id has another ref_id, or the venue does not know the order).
   */
  private ownerOf(f: VenueFill): JournalIntentRow | null | undefined {
    const { journal } = this.ctx;
    const refId = this.refs.get(f.orderId);
    if (refId === undefined) {
      if (journal.byVenueId(f.orderId)) this.toConfirm.add(f.orderId);
      return undefined;
    }
    const row = refId === '' ? undefined : journal.get(refId);
    if (row?.venueId === f.orderId) return row;
    const named = journal.byVenueId(f.orderId);
    if (!named || named.refId === refId) return undefined;
    this.misattributed(f, refId, named.refId);
    return null;
  }

  /**
   * A fill of an order whose ref_id (at the venue) is not the journal row's found by its venue id:
   * the row's venue id names another order (another venue, or one that reissued ids), so the fill
   * is not ours to journal under it. Logged once per fill, never journaled.
   */
  private misattributed(f: VenueFill, venueRef: string, journalRef: string): void {
    if (this.refused.has(f.fillId)) return;
    this.refused.add(f.fillId);
    if (this.refused.size > MAX_HELD) this.refused.delete(this.refused.keys().next().value as string);
    this.ctx.log?.error(
      { fillId: f.fillId, orderId: f.orderId, venueRef, journalRef },
      `fill ${f.fillId} of order ${f.orderId} not journaled: the venue gives that order ref_id ${venueRef}, the journal holds ${f.orderId} for ${journalRef}`,
    );
  }

  /**
   * Whether the fill just journaled (of `amount`) leaves nothing more to come for its order: the
   * journal holds the order closed, and its fills add up to the amount the venue says it filled. The
   * usual single fill of a closed order is decided without reading the order's other fills.
   */
  private completes(refId: string, amount: string): boolean {
    const facts = this.ctx.journal.facts(refId);
    if (facts?.state !== 'done') return false;
    // both are decimals as toFixed writes them: the same text is the same amount
    if (facts.amountFilled === amount) return true;
    const total = new D(facts.amountFilled);
    if (total.eq(amount)) return true;
    let sum = new D(0);
    for (const x of this.ctx.journal.fills({ refId })) sum = sum.plus(x.amount);
    return sum.eq(total);
  }

  /** Fills waiting for their order to be journaled. */
  get heldCount(): number {
    return this.held.size;
  }

  private hold(f: VenueFill): void {
    if (this.held.has(f.fillId)) return;
    this.held.set(f.fillId, f);
    if (this.held.size > MAX_HELD) this.held.delete(this.held.keys().next().value as string);
  }
}
