/**
 * The held-rate quotes of the recorded-book venue (venue.ts): the quotes a recording
 * holds are on offer until their `expires_at`; an execution settles at once at the quote's price when
 * it reaches the venue (now plus the latency) no later than that, and is refused after it. No fee: the
 * quote's spread is its cost.
 */
import { D, type MarketSymbol } from '../../core/index.js';
import type { Ledger } from '../../sim/exchange/ledger.js';
import { platformInstrument } from '../../platform/instruments.js';
import { OWN } from './funds.js';
import {
  VenueNotFoundError,
  VenueRejectedError,
  type ExecuteQuoteRequest,
  type VenueQuote,
  type VenueQuoteExecution,
} from '../../venue/venue.js';

/** A held-rate quote as a recording kept it (the decoder's `quote` event). */
export interface RecordedQuote {
  readonly quoteId: string;
  readonly market: MarketSymbol;
  readonly side: 'BUY' | 'SELL';
  /** Wire decimal string. */
  readonly price: string;
  readonly expiresAt: number;
}

/** A settled execution of a recorded quote (no fee: the quote's spread is its cost). */
export interface RecordedQuoteExecution extends VenueQuoteExecution {
  readonly at: number;
}

export interface QuoteDeskOptions {
  readonly ledger: Ledger;
  readonly now: () => number;
  readonly latencyMs: number;
  /** The venue's next id number (orders, executions and transfers share one sequence). */
  readonly nextSeq: () => number;
}

export class RecordedQuoteDesk {
  private readonly quotes = new Map<string, RecordedQuote>();
  private readonly executions: RecordedQuoteExecution[] = [];
  private readonly executionsByRef = new Map<string, RecordedQuoteExecution>();

  constructor(private readonly o: QuoteDeskOptions) {}

  /** A recorded held-rate quote: offered until its `expiresAt`. */
  offer(q: RecordedQuote): void {
    this.quotes.set(q.quoteId, q);
    // quotes long expired are of no more use: keep the map as small as what is on offer
    if (this.quotes.size > 256) for (const [id, old] of this.quotes) if (old.expiresAt < this.o.now()) this.quotes.delete(id);
  }

  /** The recorded quotes of `market` not yet expired, newest last. */
  list(market: MarketSymbol): VenueQuote[] {
    const now = this.o.now();
    return [...this.quotes.values()]
      .filter((q) => q.market === market && q.expiresAt >= now)
      .map((q) => ({ quoteId: q.quoteId, market: q.market, side: q.side, price: new D(q.price), expiresAt: q.expiresAt }));
  }

  /** Executes a recorded quote (see the file's comment); idempotent by `refId`. */
  execute(req: ExecuteQuoteRequest): VenueQuoteExecution {
    const existing = this.executionsByRef.get(req.refId);
    if (existing !== undefined) return existing;
    const q = this.quotes.get(req.quoteId);
    if (q === undefined)
      throw new VenueRejectedError(
        'QUOTE_NOT_FOUND',
        `quote ${req.quoteId} is not in the recording: execute a quote the strategy was offered`,
      );
    const arrives = this.o.now() + this.o.latencyMs;
    if (arrives > q.expiresAt) {
      throw new VenueRejectedError(
        'EXPIRED',
        `quote ${req.quoteId} expired at ${new Date(q.expiresAt).toISOString()}, before the request reached the venue (${new Date(arrives).toISOString()}): take a fresh one`,
        { expired_at: new Date(q.expiresAt).toISOString() },
      );
    }
    const i = platformInstrument(q.market);
    const price = new D(q.price);
    const buy = q.side === 'BUY';
    const base = req.baseAmount === undefined ? undefined : new D(req.baseAmount);
    const quoteIn = req.quoteAmount === undefined ? undefined : new D(req.quoteAmount);
    if ((base === undefined) === (quoteIn === undefined))
      throw new VenueRejectedError('BAD_REQUEST', 'give exactly one of base_amount and quote_amount', { field: 'base_amount' });
    // the amount not given, rounded in the platform's favour, as the platform does
    const baseAmount = base ?? quoteIn!.div(price).toDecimalPlaces(i.baseDecimals, buy ? D.ROUND_DOWN : D.ROUND_UP);
    const quoteAmount = quoteIn ?? base!.times(price).toDecimalPlaces(i.quoteDecimals, buy ? D.ROUND_UP : D.ROUND_DOWN);
    if (!baseAmount.gt(0) || !quoteAmount.gt(0))
      throw new VenueRejectedError('BAD_REQUEST', `too small: ${baseAmount.toFixed()} ${i.base} for ${quoteAmount.toFixed()} ${i.quote}`);
    const [pay, payAmount, get, getAmount] = buy ? [i.quote, quoteAmount, i.base, baseAmount] : [i.base, baseAmount, i.quote, quoteAmount];
    const have = this.o.ledger.get(OWN, pay).available;
    if (payAmount.gt(have))
      throw new VenueRejectedError(
        'INSUFFICIENT_FUNDS',
        `${q.side} ${q.market} by quote needs ${payAmount.toFixed()} ${pay}, ${have.toFixed()} available`,
        { asset: pay, needed: payAmount.toFixed(), available: have.toFixed() },
      );
    this.o.ledger.apply([
      { profileId: OWN, asset: pay, available: payAmount.neg() },
      { profileId: OWN, asset: get, available: getAmount },
    ]);
    const x: RecordedQuoteExecution = {
      executionId: `rq-${this.o.nextSeq()}`,
      refId: req.refId,
      quoteId: q.quoteId,
      market: q.market,
      side: q.side,
      price,
      baseAmount,
      quoteAmount,
      status: 'SETTLED',
      at: arrives,
    };
    this.executions.push(x);
    this.executionsByRef.set(req.refId, x);
    return x;
  }

  get(executionId: string): VenueQuoteExecution {
    const x = this.executions.find((e) => e.executionId === executionId);
    if (x === undefined) throw new VenueNotFoundError(`quote execution ${executionId} not found`);
    return x;
  }

  findByRef(refId: string): VenueQuoteExecution | undefined {
    return this.executionsByRef.get(refId);
  }

  /** Every execution so far, oldest first. */
  all(): readonly RecordedQuoteExecution[] {
    return this.executions;
  }
}
