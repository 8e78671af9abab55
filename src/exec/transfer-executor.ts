import type { Intent } from '../core/index.js';
import { VenueRejectedError } from '../venue/venue.js';
import { awaitLanding, errorCode, errorMessage, lookupFailed, stillLanding, type ExecContext } from './exec-context.js';

type TransferIntent = Extract<Intent, { kind: 'transfer' }>;

/** Runs approved internal-transfer intents, idempotent by ref_id; unknown outcomes are looked up. */
export class TransferExecutor {
  constructor(private readonly ctx: ExecContext) {}

  async transfer(intent: TransferIntent): Promise<void> {
    const { journal, clock, venue } = this.ctx;
    const req = {
      refId: intent.intentId,
      asset: intent.asset,
      amount: intent.amount,
      fromProfileId: intent.fromProfileId,
      toProfileId: intent.toProfileId,
    };
    journal.markSent(intent.intentId, clock.now(), req);
    try {
      const t = await venue.transfer(req);
      journal.update(intent.intentId, clock.now(), 'done', { venueId: t.transferId, status: t.status }, { type: 'response', data: t });
      this.ctx.emit({ kind: 'transferred', refId: intent.intentId, transferId: t.transferId, status: t.status, at: clock.now() });
    } catch (e) {
      if (e instanceof VenueRejectedError) {
        journal.update(
          intent.intentId,
          clock.now(),
          'done',
          { status: 'REJECTED', message: e.message },
          { type: 'rejected', data: { code: e.code } },
        );
        this.ctx.emit({ kind: 'rejected', refId: intent.intentId, code: e.code, message: e.message, at: clock.now() });
        return;
      }
      this.ctx.log?.warn({ refId: intent.intentId, code: errorCode(e) }, `transfer outcome unknown, looking it up: ${errorMessage(e)}`);
      await this.resolve(intent.intentId);
    }
  }

  async resolve(refId: string): Promise<void> {
    const { journal, clock, venue } = this.ctx;
    try {
      const t = await venue.findTransferByRef(refId);
      if (t) {
        journal.update(refId, clock.now(), 'done', { venueId: t.transferId, status: t.status }, { type: 'lookup', data: t });
        this.ctx.emit({ kind: 'transferred', refId, transferId: t.transferId, status: t.status, at: clock.now() });
        return;
      }
      const until = stillLanding(this.ctx, refId);
      if (until !== undefined) return awaitLanding(this.ctx, refId, until, 'transfer');
      journal.update(refId, clock.now(), 'done', { status: 'NOT_PLACED' }, { type: 'lookup', data: { found: false } });
      this.ctx.emit({ kind: 'failed', refId, code: 'NOT_PLACED', message: 'the transfer never reached the venue', at: clock.now() });
    } catch (e) {
      lookupFailed(this.ctx, refId, e);
    }
  }
}
