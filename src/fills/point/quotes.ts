/**
 * Held-rate quotes of point replay (`market.ts`): the buy and sell pair offered at a point, and
 * the executed quotes. A quote settles at once, at its point, so executing one is a ledger move and a
 * record; kept apart from the market file, whose per-point fill rule never touches quotes.
 */
import { D, type Dec, ZERO } from '../../core/decimal.js';
import { assetDecimals, splitMarket } from '../../core/markets.js';
import { SimError } from '../../sim/errors.js';
import { type Balances } from '../../sim/exchange/ledger.js';
import { quoteExecution } from './fills.js';
import { checkSize, executionOfDecimals, type PointExecution, type PointQuote, type PointQuoteExecution } from './orders.js';

/** What a caller asks to execute: a quote of the current point, sized by exactly one of the amounts. */
export interface PointQuoteRequest {
  refId: string;
  quoteId: string;
  baseAmount?: string;
  quoteAmount?: string;
}

/** How quotes are priced and named (PointMarket's options). */
export interface QuoteTerms {
  readonly quoteSpreadBps: number;
  readonly quoteTtlMs: number;
  readonly prefix: string;
}

/**
 * The pair offered at the point `seq` of `market` (time `at`, price `mid`): a buy at mid × (1 + spread)
 * rounded up and a sell at mid × (1 − spread) rounded down to the quote currency's decimals.
 */
export function offerQuotes(market: string, at: number, seq: number, mid: Dec, terms: QuoteTerms): readonly PointQuote[] {
  const { quote } = splitMarket(market);
  const dp = assetDecimals(quote);
  const k = new D(terms.quoteSpreadBps).div(10_000);
  const expiresAt = at + terms.quoteTtlMs;
  const id = `${terms.prefix}-q-${market}-${seq}`;
  return [
    { quoteId: `${id}-B`, market, side: 'BUY', price: mid.times(k.plus(1)).toDecimalPlaces(dp, D.ROUND_UP), createdAt: at, expiresAt },
    {
      quoteId: `${id}-S`,
      market,
      side: 'SELL',
      price: mid.times(new D(1).minus(k)).toDecimalPlaces(dp, D.ROUND_DOWN),
      createdAt: at,
      expiresAt,
    },
  ];
}

/** The executed quotes of one point-replay account, by id and by ref_id (executing is idempotent by ref_id). */
export class PointQuoteExecutions {
  private readonly byId = new Map<string, PointQuoteExecution>();
  private readonly byRef = new Map<string, string>();

  constructor(
    private readonly ledger: Balances,
    private readonly profile: string,
  ) {}

  get(executionId: string): PointQuoteExecution {
    const x = this.byId.get(executionId);
    if (x === undefined) throw new SimError('not-found', `quote execution ${executionId} not found`);
    return x;
  }

  findByRef(refId: string): PointQuoteExecution | undefined {
    const id = this.byRef.get(refId);
    return id === undefined ? undefined : this.byId.get(id);
  }

  /**
   * Settles `quote` at `at`: checks the size and the funds, pays and receives in the ledger, records the
   * execution. `newId` is called only once the funds have moved (a refused quote uses no id). Returns
   * the execution and the fill that reports it.
   */
  settle(req: PointQuoteRequest, quote: PointQuote, at: number, newId: () => string): { exec: PointQuoteExecution; fill: PointExecution } {
    const c = checkSize(quote.market, req.baseAmount, req.quoteAmount);
    const x = quoteExecution(quote.side, { base: c.baseAmount, quote: c.quoteAmount }, quote.price, c.precision);
    const [payAsset, pay, getAsset, get] = quote.side === 'BUY' ? [c.quote, x.quote, c.base, x.base] : [c.base, x.base, c.quote, x.quote];
    this.ledger.require(this.profile, payAsset, pay);
    this.ledger.apply([
      { profileId: this.profile, asset: payAsset, available: pay.neg() },
      { profileId: this.profile, asset: getAsset, available: get },
    ]);
    const id = newId();
    const exec: PointQuoteExecution = {
      executionId: id,
      refId: req.refId,
      quoteId: quote.quoteId,
      market: quote.market,
      side: quote.side,
      price: quote.price,
      baseAmount: x.base,
      quoteAmount: x.quote,
      status: 'SETTLED',
      at,
    };
    this.byId.set(id, exec);
    this.byRef.set(req.refId, id);
    const fill = executionOfDecimals({
      executionId: id,
      orderId: id,
      refId: req.refId,
      market: quote.market,
      side: quote.side,
      amount: x.base,
      price: x.price,
      commission: ZERO,
      commissionAsset: c.quote,
      quoteAmount: x.quote,
      at,
      kind: 'quote',
    });
    return { exec, fill };
  }
}
