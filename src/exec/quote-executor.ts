import { D, type Intent } from '../core/index.js';
import { VenueRejectedError, type VenueQuote, type VenueQuoteExecution } from '../venue/venue.js';
import { awaitLanding, errorCode, errorMessage, lookupFailed, pollFailed, stillLanding, type ExecContext } from './exec-context.js';
import type { JournalIntentRow } from './journal.js';

type QuoteIntent = Extract<Intent, { kind: 'execute-quote' }>;

/**
 * Runs approved execute-quote intents: picks the freshest unexpired quote for the side, executes it
 * with `refId = intentId`, and follows the execution from CREATED to SETTLED. An unknown outcome is
 * resolved by finding the execution by ref_id.
 */
export class QuoteExecutor {
  constructor(
    private readonly ctx: ExecContext,
    private readonly minTimeLeftMs = 1_000,
  ) {}

  async execute(intent: QuoteIntent): Promise<void> {
    const { journal, clock, venue } = this.ctx;
    let quote: VenueQuote | undefined;
    try {
      quote = pickQuote(await venue.listQuotes(intent.market), intent, clock.now() + this.minTimeLeftMs);
    } catch (e) {
      return this.fail(intent.intentId, 'QUOTES_UNAVAILABLE', `cannot read quotes: ${errorMessage(e)}`);
    }
    if (!quote)
      return this.fail(intent.intentId, 'QUOTE_EXPIRED', `no ${intent.side} quote of ${intent.market} with ${this.minTimeLeftMs} ms left`);
    if (intent.limitPrice !== undefined) {
      const limit = new D(intent.limitPrice);
      if (intent.side === 'BUY' ? quote.price.gt(limit) : quote.price.lt(limit)) {
        return this.fail(
          intent.intentId,
          'PRICE_BAND',
          `quote price ${quote.price.toFixed()} is worse than the limit ${intent.limitPrice}`,
        );
      }
    }
    const req = {
      refId: intent.intentId,
      quoteId: quote.quoteId,
      ...(intent.baseAmount !== undefined && { baseAmount: intent.baseAmount }),
      ...(intent.quoteAmount !== undefined && { quoteAmount: intent.quoteAmount }),
    };
    journal.markSent(intent.intentId, clock.now(), req);
    try {
      this.apply(intent.intentId, await venue.executeQuote(req), 'response');
    } catch (e) {
      if (e instanceof VenueRejectedError) return this.fail(intent.intentId, e.code, e.message);
      this.ctx.log?.warn(
        { refId: intent.intentId, code: errorCode(e) },
        `quote execution outcome unknown, looking it up: ${errorMessage(e)}`,
      );
      await this.resolve(intent.intentId);
    }
  }

  async resolve(refId: string): Promise<void> {
    const { venue } = this.ctx;
    try {
      const found = await venue.findQuoteExecutionByRef(refId);
      if (found) return this.apply(refId, found, 'lookup');
      const until = stillLanding(this.ctx, refId);
      if (until !== undefined) return awaitLanding(this.ctx, refId, until, 'quote execution');
      this.fail(refId, 'NOT_PLACED', 'the venue has no quote execution with this ref_id');
    } catch (e) {
      lookupFailed(this.ctx, refId, e);
    }
  }

  /** Follows an open (CREATED) execution; emits when it settles. */
  async refresh(row: JournalIntentRow): Promise<void> {
    if (!row.venueId) return this.resolve(row.refId);
    try {
      this.apply(row.refId, await this.ctx.venue.getQuoteExecution(row.venueId), 'status');
    } catch (e) {
      pollFailed(this.ctx, e, { refId: row.refId }, `quote execution poll failed: ${errorMessage(e)}`);
    }
  }

  private apply(refId: string, x: VenueQuoteExecution, source: string): void {
    const { journal, clock } = this.ctx;
    const before = journal.get(refId);
    if (before?.status === x.status && before.venueId === x.executionId) return;
    const settled = x.status === 'SETTLED';
    journal.update(
      refId,
      clock.now(),
      settled ? 'done' : 'open',
      { venueId: x.executionId, status: x.status, amountFilled: x.baseAmount.toFixed(), averagePrice: x.price.toFixed() },
      { type: source, data: { status: x.status } },
    );
    this.ctx.emit({
      kind: 'quote-executed',
      refId,
      executionId: x.executionId,
      market: x.market,
      side: x.side,
      baseAmount: x.baseAmount.toFixed(),
      quoteAmount: x.quoteAmount.toFixed(),
      price: x.price.toFixed(),
      settled,
      at: clock.now(),
    });
  }

  private fail(refId: string, code: string, message: string): void {
    this.ctx.journal.update(
      refId,
      this.ctx.clock.now(),
      'done',
      { status: 'REJECTED', message },
      { type: 'rejected', data: { code, message } },
    );
    this.ctx.emit({ kind: 'rejected', refId, code, message, at: this.ctx.clock.now() });
  }
}

/** The quote of the intent's side with the most time left beyond `minExpiresAt`. */
export function pickQuote(
  quotes: readonly VenueQuote[],
  intent: Pick<QuoteIntent, 'market' | 'side'>,
  minExpiresAt: number,
): VenueQuote | undefined {
  let best: VenueQuote | undefined;
  for (const q of quotes) {
    if (q.market !== intent.market || q.side !== intent.side || q.expiresAt < minExpiresAt) continue;
    if (!best || q.expiresAt > best.expiresAt) best = q;
  }
  return best;
}
