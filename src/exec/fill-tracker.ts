import type { VenueFill } from '../venue/venue.js';
import { errorMessage, type ExecContext } from './exec-context.js';

/** Fills held for orders not journaled yet; the oldest are dropped beyond this. */
const MAX_HELD = 10_000;

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
      this.ctx.log?.warn(`fill poll failed: ${errorMessage(e)}`);
      return 0;
    }
    return this.ingest(fills);
  }

  /** Records fills (from a poll or a push) and any held ones; returns how many were new. */
  ingest(fills: readonly VenueFill[]): number {
    let added = 0;
    const all = this.held.size ? [...this.held.values(), ...fills] : fills;
    for (const f of all) {
      const row = this.ctx.journal.byVenueId(f.orderId);
      if (!row) {
        this.hold(f);
        continue;
      }
      this.held.delete(f.fillId);
      const fresh = this.ctx.journal.recordFill({
        fillId: f.fillId,
        refId: row.refId,
        orderId: f.orderId,
        market: f.market,
        side: f.side,
        amount: f.amount.toFixed(),
        price: f.price.toFixed(),
        commission: f.commission.toFixed(),
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
        amount: f.amount.toFixed(),
        price: f.price.toFixed(),
        commission: f.commission.toFixed(),
        commissionAsset: f.commissionAsset,
        at: f.at,
      });
      // keep a small overlap: fills at the same millisecond may arrive in a later poll
      if (f.at - 1 > this.sinceMs) this.sinceMs = f.at - 1;
    }
    return added;
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
