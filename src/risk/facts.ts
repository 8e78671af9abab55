import { decimalPlaces, isTradingMarket, ZERO, type Dec, type Instrument, type Intent, type MarketSymbol, type Side } from '../core/index.js';
import { catalogInstrument } from '../sim/market/catalog.js';
import { midOf } from '../state/index.js';
import type { DenialReason } from '../core/index.js';
import { decimalOf, decimalOfNumber } from './decimals.js';
import { deny } from './denial.js';
import type { RiskView } from './view.js';

export type TradeIntent = Extract<Intent, { kind: 'place-order' | 'execute-quote' }>;

/** What the checks need to know about a trading intent, parsed once. */
export interface TradeFacts {
  readonly intent: TradeIntent;
  readonly market: MarketSymbol;
  readonly side: Side;
  readonly base: string;
  readonly quote: string;
  /** The venue's instrument of the market, or the catalog's when the venue's is not known. */
  readonly instrument: Instrument;
  readonly baseAmount?: Dec;
  readonly quoteAmount?: Dec;
  readonly price?: Dec;
  /** Mid (or reference) price used to value the intent. */
  readonly reference?: Dec;
  /** Value in the quote currency. */
  readonly notional?: Dec;
}

const AMOUNT = /^(\d+\.?\d*|\.\d+)$/;

/** Parses a positive decimal string; returns a denial naming the field otherwise. */
function amount(value: string | undefined, field: string): Dec | DenialReason | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !AMOUNT.test(value)) return deny('INVALID_INTENT', `${field} must be a positive decimal string, got ${JSON.stringify(value)}`, { field });
  const d = decimalOf(value);
  if (d.lte(ZERO)) return deny('INVALID_INTENT', `${field} must be greater than zero, got ${value}`, { field, value });
  return d;
}

function isDenial(v: unknown): v is DenialReason {
  return typeof v === 'object' && v !== null && 'code' in v && 'message' in v;
}

/** Derives trade facts from a place-order or execute-quote intent, or denies a malformed one. */
export function tradeFacts(intent: TradeIntent, view: RiskView): TradeFacts | DenialReason {
  if (!isTradingMarket(intent.market)) return deny('MARKET_NOT_ALLOWED', `${intent.market} is not a trading market of the platform`, { market: intent.market });
  if (intent.side !== 'BUY' && intent.side !== 'SELL') return deny('INVALID_INTENT', `side must be BUY or SELL, got ${JSON.stringify(intent.side)}`, { field: 'side' });
  const instrument = view.instrument(intent.market) ?? catalogInstrument(intent.market);
  const { base, quote } = instrument;
  const baseAmount = amount(intent.baseAmount, 'baseAmount');
  const quoteAmount = amount(intent.quoteAmount, 'quoteAmount');
  const rawPrice = intent.kind === 'place-order' ? intent.price : intent.limitPrice;
  const price = amount(rawPrice, intent.kind === 'place-order' ? 'price' : 'limitPrice');
  if (isDenial(baseAmount)) return baseAmount;
  if (isDenial(quoteAmount)) return quoteAmount;
  if (isDenial(price)) return price;
  if ((baseAmount === undefined) === (quoteAmount === undefined)) {
    return deny('INVALID_INTENT', 'exactly one of baseAmount and quoteAmount must be set', { field: 'baseAmount|quoteAmount' });
  }
  const mid = midOf(view.market(intent.market));
  const reference = mid !== undefined && Number.isFinite(mid) && mid > 0 ? decimalOfNumber(mid) : undefined;
  const p = price ?? reference;
  const notional = quoteAmount !== undefined ? quoteAmount : p !== undefined ? (baseAmount as Dec).times(p) : undefined;
  return {
    intent,
    market: intent.market,
    side: intent.side,
    base,
    quote,
    instrument,
    baseAmount,
    quoteAmount,
    price,
    reference,
    notional,
  };
}

export { isDenial, decimalPlaces };
