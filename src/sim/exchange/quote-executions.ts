import { D, type Dec } from '../../core/decimal.js';
import { InputError } from '../../core/errors.js';
import { type Side } from '../../core/messages.js';
import { SimError } from '../errors.js';
import { type IdSource } from '../ids.js';
import { type Ledger } from './ledger.js';
import { amount, metadata, optionalString } from './order-rules.js';
import { type ProfileStore } from './profiles.js';
import { type QuoteBook, type SimQuote } from './quotes.js';
import { isoTime } from '../time.js';

export type QuoteExecutionStatus = 'CREATED' | 'SETTLED';

/** A quote execution: CREATED with the paying asset locked, SETTLED once both legs have moved. */
export interface SimQuoteExecution {
  readonly id: string;
  readonly seq: number;
  readonly profileId: string;
  readonly quoteId: string;
  readonly refId: string | undefined;
  status: QuoteExecutionStatus;
  readonly market: string;
  readonly side: Side;
  readonly price: Dec;
  readonly baseAmount: Dec;
  readonly baseAsset: string;
  readonly quoteAmount: Dec;
  readonly quoteAsset: string;
  readonly createdAt: number;
  /** When it becomes SETTLED (the settlement time once it has). */
  readonly settleAt: number;
  settledAt: number | undefined;
  readonly metadata: Readonly<Record<string, string>>;
  readonly identityId: string | undefined;
  readonly accountId: string | undefined;
  readonly recipientProfileId: string | undefined;
}

/** A CreateQuoteExecution request as it arrives (wire values; the store validates them). */
export interface QuoteExecutionCommand {
  readonly profileId: string;
  readonly quoteId: unknown;
  readonly refId?: unknown;
  readonly baseAmount?: unknown;
  readonly quoteAmount?: unknown;
  readonly metadata?: unknown;
  readonly identityId?: unknown;
  readonly accountId?: unknown;
  readonly recipientProfileId?: unknown;
}

export interface QuoteExecutionFilter {
  readonly profileId: string;
  readonly side?: Side;
  readonly market?: string;
  readonly status?: QuoteExecutionStatus;
  readonly beginMs?: number;
  readonly endMs?: number;
}

/**
 * Quote executions at a quote's held price. Validation order: input, profiles, ref_id (a reused
 * ref_id answers 409 with the earlier record even after its quote expired), quote (404, 403
 * `expired`, 403 `rejected`), funds (403). The paying asset moves from available to trading at
 * once; after `settleDelayMs` it leaves and the bought asset is credited (to the recipient profile
 * when one is named).
 */
export class QuoteExecutionStore {
  readonly executions: SimQuoteExecution[] = [];
  private readonly byId = new Map<string, SimQuoteExecution>();
  private readonly byRef = new Map<string, SimQuoteExecution>();
  private readonly pending: SimQuoteExecution[] = [];

  constructor(
    private readonly ledger: Ledger,
    private readonly profiles: ProfileStore,
    private readonly quotes: QuoteBook,
    private readonly ids: IdSource,
  ) {}

  execute(cmd: QuoteExecutionCommand, nowMs: number): SimQuoteExecution {
    const quoteId = optionalString(cmd.quoteId, 'quote_id', 100);
    if (quoteId === undefined) throw new InputError('quote_id', 'required: the id of a quote from ListQuotes');
    const base = amount(cmd.baseAmount, 'base_amount', 8);
    const quoteAmt = amount(cmd.quoteAmount, 'quote_amount', 2);
    if ((base === undefined) === (quoteAmt === undefined))
      throw new InputError(
        base === undefined ? 'base_amount' : 'quote_amount',
        'send exactly one of base_amount (crypto, ≤ 8 decimals) and quote_amount (fiat, ≤ 2 decimals)',
      );
    const meta = metadata(cmd.metadata);
    const refId = optionalString(cmd.refId, 'ref_id', 100);
    const identityId = optionalString(cmd.identityId, 'identity_id', 100);
    const accountId = optionalString(cmd.accountId, 'account_id', 100);
    const profile = this.profiles.get(cmd.profileId);
    const recipientId = optionalString(cmd.recipientProfileId, 'recipient_profile_id', 100);
    const recipient = recipientId === undefined ? undefined : this.profiles.get(recipientId);
    this.checkRefId(refId);
    const quote = this.liveQuote(quoteId, nowMs);
    const { baseAmount, quoteAmount } = amounts(quote, base, quoteAmt);
    const pay = quote.side === 'BUY' ? { asset: quote.quoteAsset, amount: quoteAmount } : { asset: quote.baseAsset, amount: baseAmount };
    this.ledger.reserve(profile.id, pay.asset, pay.amount);
    const x: SimQuoteExecution = {
      id: this.ids.next('quote-executions'),
      seq: this.executions.length + 1,
      profileId: profile.id,
      quoteId,
      refId,
      status: 'CREATED',
      market: quote.market,
      side: quote.side,
      price: quote.price,
      baseAmount,
      baseAsset: quote.baseAsset,
      quoteAmount,
      quoteAsset: quote.quoteAsset,
      createdAt: nowMs,
      settleAt: nowMs + this.quotes.settings.settleDelayMs,
      settledAt: undefined,
      metadata: meta,
      identityId,
      accountId,
      recipientProfileId: recipient?.id,
    };
    this.insert(x);
    return x;
  }

  /** Settles every execution due at or before `atMs`, in creation order. */
  settleDue(atMs: number): void {
    while (this.pending.length > 0 && this.pending[0]!.settleAt <= atMs) {
      const x = this.pending.shift()!;
      const to = x.recipientProfileId ?? x.profileId;
      const [payAsset, payAmount, getAsset, getAmount] =
        x.side === 'BUY'
          ? [x.quoteAsset, x.quoteAmount, x.baseAsset, x.baseAmount]
          : [x.baseAsset, x.baseAmount, x.quoteAsset, x.quoteAmount];
      this.ledger.apply([
        { profileId: x.profileId, asset: payAsset, trading: payAmount.neg() },
        { profileId: to, asset: getAsset, available: getAmount },
      ]);
      x.status = 'SETTLED';
      x.settledAt = x.settleAt;
    }
  }

  /** One execution of a profile (404 for another profile's). */
  get(profileId: string, id: string): SimQuoteExecution {
    const x = this.byId.get(id);
    if (x === undefined || x.profileId !== profileId)
      throw new SimError('not-found', `quote execution ${id} not found in profile ${profileId}`);
    return x;
  }

  /** Executions of a profile matching every filter, newest first. */
  list(f: QuoteExecutionFilter): SimQuoteExecution[] {
    const out: SimQuoteExecution[] = [];
    for (let i = this.executions.length - 1; i >= 0; i--) {
      const x = this.executions[i]!;
      if (x.profileId !== f.profileId || (f.side !== undefined && x.side !== f.side) || (f.market !== undefined && x.market !== f.market))
        continue;
      if (
        (f.status !== undefined && x.status !== f.status) ||
        (f.beginMs !== undefined && x.createdAt < f.beginMs) ||
        (f.endMs !== undefined && x.createdAt > f.endMs)
      )
        continue;
      out.push(x);
    }
    return out;
  }

  /** Re-inserts executions from a snapshot (oldest first). */
  restore(executions: readonly SimQuoteExecution[]): void {
    for (const x of executions) this.insert(x);
  }

  private insert(x: SimQuoteExecution): void {
    this.executions.push(x);
    this.byId.set(x.id, x);
    if (x.refId !== undefined) this.byRef.set(x.refId, x);
    if (x.status === 'CREATED') this.pending.push(x);
  }

  private checkRefId(refId: string | undefined): void {
    const existing = refId === undefined ? undefined : this.byRef.get(refId);
    if (existing !== undefined)
      throw new SimError('already-exists', `a quote execution with ref_id ${JSON.stringify(refId)} already exists`, undefined, {
        kind: 'quote-execution',
        id: existing.id,
      });
  }

  private liveQuote(quoteId: string, nowMs: number): SimQuote {
    const quote = this.quotes.get(quoteId);
    if (quote === undefined) throw new SimError('not-found', `quote ${quoteId} not found: take a fresh one from ListQuotes`);
    if (nowMs > quote.expiresAt)
      throw new SimError('expired', `quote ${quoteId} expired at ${isoTime(quote.expiresAt)}: take a fresh one from ListQuotes`, {
        expired_at: isoTime(quote.expiresAt),
      });
    const move = Math.abs(this.quotes.midNow(quote.market, nowMs) / quote.mid - 1);
    if (move > this.quotes.settings.rejectMove)
      throw new SimError(
        'rejected',
        `the ${quote.market} market moved ${(move * 100).toFixed(2)} % since quote ${quoteId} was made: take a fresh one`,
        {},
      );
    return quote;
  }
}

/** Both amounts from the one requested, rounded in the platform's favour (fiat 2 dp, crypto 8 dp). */
function amounts(q: SimQuote, base: Dec | undefined, quote: Dec | undefined): { baseAmount: Dec; quoteAmount: Dec } {
  const buy = q.side === 'BUY';
  if (base !== undefined) {
    const quoteAmount = base.times(q.price).toDecimalPlaces(2, buy ? D.ROUND_UP : D.ROUND_DOWN);
    if (quoteAmount.isZero())
      throw new InputError('base_amount', `too small: ${base.toFixed()} ${q.baseAsset} is worth less than 0.01 ${q.quoteAsset}`);
    return { baseAmount: base, quoteAmount };
  }
  const baseAmount = quote!.div(q.price).toDecimalPlaces(8, buy ? D.ROUND_DOWN : D.ROUND_UP);
  if (baseAmount.isZero())
    throw new InputError('quote_amount', `too small: ${quote!.toFixed()} ${q.quoteAsset} buys less than 0.00000001 ${q.baseAsset}`);
  return { baseAmount, quoteAmount: quote! };
}
