import type { VenueFill } from '../venue/index.js';
import { errorMessage, type ExecContext } from './exec-context.js';

/**
 * Follows the venue's fills and records each exactly once in the journal (the fill id is the key),
 * emitting a `filled` report for each new one. Fills of orders the journal does not know (placed by
 * someone else on the profile) are ignored.
 */
export class FillTracker {
  private sinceMs: number;

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

  /** Records fills (from a poll or a push); returns how many were new. */
  ingest(fills: readonly VenueFill[]): number {
    let added = 0;
    for (const f of fills) {
      const row = this.ctx.journal.byVenueId(f.orderId);
      if (!row) continue;
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
}
