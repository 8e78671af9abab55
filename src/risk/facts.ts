import { isTradingMarket, type DenialReason, type Instrument, type Intent, type MarketSymbol, type Side } from '../core/index.js';
import { dividedBy, exactOf, exactOfNumber, times, type Exact } from '../core/exact.js';
import { platformInstrument } from '../platform/instruments.js';
import { midOf, type MarketSnapshot } from '../state/index.js';
import { deny } from './denial.js';
import type { RiskView } from './view.js';

export type TradeIntent = Extract<Intent, { kind: 'place-order' | 'execute-quote' }>;

/**
 * What the checks need to know about a trading intent, read once. Amounts are exact (core/exact.ts):
 * the checks compare and multiply them exactly as decimal.js did, and build a Decimal only for what a
 * denial says. The reference price and the notional are worked out when a check first asks (a
 * quote-sized buy, the commonest order, needs neither).
 */
export class TradeFacts {
  readonly market: MarketSymbol;
  readonly side: Side;
  readonly base: string;
  readonly quote: string;
  #reference: Exact | undefined | null = null;
  #notional: Exact | undefined | null = null;
  #base: Exact | undefined | null = null;

  constructor(
    readonly intent: TradeIntent,
    /** The venue's instrument of the market, or the platform's (src/platform/instruments.ts) when the venue's is not known. */
    readonly instrument: Instrument,
    readonly baseAmount: Exact | undefined,
    readonly quoteAmount: Exact | undefined,
    readonly price: Exact | undefined,
    /** The market's data as the gate read it for this intent. */
    readonly snapshot: MarketSnapshot,
    /** The market's mid price, when market data gives a usable one (finite, above zero). */
    readonly mid: number | undefined,
  ) {
    this.market = intent.market;
    this.side = intent.side;
    this.base = instrument.base;
    this.quote = instrument.quote;
  }

  /** Mid (or reference) price used to value the intent. */
  get reference(): Exact | undefined {
    if (this.#reference === null) this.#reference = this.mid === undefined ? undefined : exactOfNumber(this.mid);
    return this.#reference;
  }

  /**
   * The base amount the trade takes (a sell) or adds (a buy): as asked, or its quote amount at the
   * price it converts at (see conversionPrice); undefined when no such price is known.
   */
  get baseEquivalent(): Exact | undefined {
    if (this.#base === null) {
      if (this.baseAmount !== undefined) this.#base = this.baseAmount;
      else {
        const at = conversionPrice(this.intent, this.snapshot, this.mid);
        const p = at === undefined ? undefined : typeof at === 'number' ? this.reference : exactOf(at);
        this.#base = p === undefined ? undefined : dividedBy(this.quoteAmount!, p);
      }
    }
    return this.#base;
  }

  /** Value in the quote currency: the quote amount, or the base amount at the price (or the reference). */
  get notional(): Exact | undefined {
    if (this.#notional === null) {
      if (this.quoteAmount !== undefined) this.#notional = this.quoteAmount;
      else {
        const p = this.price ?? this.reference;
        this.#notional = p !== undefined ? times(this.baseAmount!, p) : undefined;
      }
    }
    return this.#notional;
  }
}

/**
 * The price a trade sized in the quote asset converts to base at: a quote execution's is the live
 * quote of its side (it executes at that price), an order's its limit price when it has one, else
 * the market's mid. Undefined when none is known. The gate's checks and the position book's open
 * sells both convert with it, so a quote-sized sell counts against its strategy's own position.
 */
export function conversionPrice(
  intent: TradeIntent,
  snapshot: Pick<MarketSnapshot, 'quotes'>,
  mid: number | undefined,
): string | number | undefined {
  if (intent.kind === 'execute-quote') return snapshot.quotes[intent.side]?.value.price;
  return intent.price ?? mid;
}

const AMOUNT = /^(\d+\.?\d*|\.\d+)$/;

/** Reads a positive decimal string; returns a denial naming the field otherwise. */
function amount(value: string | undefined, field: string): Exact | DenialReason | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !AMOUNT.test(value))
    return deny('INVALID_INTENT', `${field} must be a positive decimal string, got ${JSON.stringify(value)}`, { field });
  const x = exactOf(value)!; // the pattern above admits decimals only
  if (x.units <= 0n) return deny('INVALID_INTENT', `${field} must be greater than zero, got ${value}`, { field, value });
  return x;
}

const EXIT_RULES: ReadonlySet<unknown> = new Set(['stop-loss', 'trailing-stop', 'take-profit']);

/**
 * An `exitLevel` (a position helper's exit decided on a bar's extreme) is a positive decimal string on
 * a MARKET sell whose `exitReason` is the rule that reached it; anything else is denied, naming the field.
 */
function exitLevelDenial(intent: Extract<TradeIntent, { kind: 'place-order' }>): DenialReason | undefined {
  const level = amount(intent.exitLevel, 'exitLevel');
  if (isDenial(level)) return level;
  if (intent.type !== 'MARKET' || intent.side !== 'SELL')
    return deny(
      'INVALID_INTENT',
      `exitLevel goes with a MARKET sell (a position helper's exit), not a ${intent.type} ${intent.side}: leave it out`,
      { field: 'exitLevel' },
    );
  if (!EXIT_RULES.has(intent.exitReason))
    return deny(
      'INVALID_INTENT',
      `exitLevel needs exitReason stop-loss, trailing-stop or take-profit (the rule that reached it), got ${JSON.stringify(intent.exitReason)}`,
      { field: 'exitReason' },
    );
  return undefined;
}

function isDenial(v: unknown): v is DenialReason {
  return typeof v === 'object' && v !== null && 'code' in v && 'message' in v;
}

/** Derives trade facts from a place-order or execute-quote intent, or denies a malformed one. */
export function tradeFacts(intent: TradeIntent, view: RiskView): TradeFacts | DenialReason {
  if (!isTradingMarket(intent.market))
    return deny('MARKET_NOT_ALLOWED', `${intent.market} is not a trading market of the platform`, { market: intent.market });
  if (intent.side !== 'BUY' && intent.side !== 'SELL')
    return deny('INVALID_INTENT', `side must be BUY or SELL, got ${JSON.stringify(intent.side)}`, { field: 'side' });
  const instrument = view.instrument(intent.market) ?? platformInstrument(intent.market);
  const baseAmount = amount(intent.baseAmount, 'baseAmount');
  const quoteAmount = amount(intent.quoteAmount, 'quoteAmount');
  const rawPrice = intent.kind === 'place-order' ? intent.price : intent.limitPrice;
  const price = amount(rawPrice, intent.kind === 'place-order' ? 'price' : 'limitPrice');
  if (isDenial(baseAmount)) return baseAmount;
  if (isDenial(quoteAmount)) return quoteAmount;
  if (isDenial(price)) return price;
  if (intent.kind === 'place-order' && intent.exitLevel !== undefined) {
    const bad = exitLevelDenial(intent);
    if (bad !== undefined) return bad;
  }
  if ((baseAmount === undefined) === (quoteAmount === undefined)) {
    return deny('INVALID_INTENT', 'exactly one of baseAmount and quoteAmount must be set', { field: 'baseAmount|quoteAmount' });
  }
  const snapshot = view.market(intent.market);
  const mid = midOf(snapshot);
  return new TradeFacts(
    intent,
    instrument,
    baseAmount,
    quoteAmount,
    price,
    snapshot,
    mid !== undefined && Number.isFinite(mid) && mid > 0 ? mid : undefined,
  );
}

export { isDenial };
