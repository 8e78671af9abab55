import { D, type DenialReason } from '../../core/index.js';
import { abs, compare, exactOfNumber, minus, times, toDecimal, type Exact } from '../../core/exact.js';
import { quoteTimeLeftMs } from '../../state/index.js';
import { deny } from '../denial.js';
import type { TradeFacts } from '../facts.js';
import type { RiskLimits } from '../limits.js';
import type { RiskView } from '../view.js';

/** New orders need fresh market data to be valued and banded. */
export function checkStale(f: TradeFacts, view: RiskView, limits: RiskLimits): DenialReason | undefined {
  const s = f.snapshot;
  const now = view.now();
  const newest = Math.max(s.price?.at ?? -Infinity, s.bestBid?.at ?? -Infinity, s.bestAsk?.at ?? -Infinity);
  const age = now - newest;
  if (!Number.isFinite(newest) || age > limits.stale_after_ms) {
    return deny(
      'STALE_DATA',
      `market data of ${f.market} is ${Number.isFinite(newest) ? `${age} ms old` : 'missing'} (limit ${limits.stale_after_ms} ms)`,
      {
        market: f.market,
        age_ms: Number.isFinite(newest) ? age : -1,
        max_age_ms: limits.stale_after_ms,
      },
    );
  }
  return undefined;
}

/** A limit price far from mid is a mistake (and the platform refuses takers beyond 15%). */
export function checkPriceBand(f: TradeFacts, _view: RiskView, limits: RiskLimits): DenialReason | undefined {
  if (f.price === undefined || f.reference === undefined || f.intent.kind !== 'place-order') return undefined;
  // Without a division first: |price − mid| × 10,000 ≤ band × mid exactly means the rounded distance
  // below is within the band too (rounding is monotone and keeps the band's own value), so most
  // orders pass on two multiplications; one beyond it is decided by the rounded distance, as always.
  const band = bandOf(limits);
  if (compare(times(abs(minus(f.price, f.reference)), TEN_THOUSAND), times(band, f.reference)) <= 0) return undefined;
  const price = toDecimal(f.price);
  const mid = toDecimal(f.reference);
  const bps = price.minus(mid).abs().div(mid).times(10_000);
  if (bps.gt(limits.price_band_bps)) {
    return deny(
      'PRICE_BAND',
      `price ${price.toFixed()} is ${bps.toFixed(0)} bps from mid ${mid.toFixed()} (band ${limits.price_band_bps} bps)`,
      {
        price: price.toFixed(),
        mid: mid.toFixed(),
        distance_bps: Number(bps.toFixed(2)),
        band_bps: limits.price_band_bps,
      },
    );
  }
  return undefined;
}

const TEN_THOUSAND: Exact = { units: 10_000n, scale: 0 };

/** The price band of a limits object, read once per value of `price_band_bps`. */
const BANDS = new WeakMap<RiskLimits, { readonly raw: number; readonly band: Exact }>();
function bandOf(limits: RiskLimits): Exact {
  const b = BANDS.get(limits);
  if (b !== undefined && b.raw === limits.price_band_bps) return b.band;
  const band = exactOfNumber(limits.price_band_bps)!; // the schema admits finite numbers only
  BANDS.set(limits, { raw: limits.price_band_bps, band });
  return band;
}

/** A quote execution needs a live quote with enough time left, within the intent's worst price. */
export function checkQuote(f: TradeFacts, view: RiskView, limits: RiskLimits): DenialReason | undefined {
  if (f.intent.kind !== 'execute-quote') return undefined;
  const quote = f.snapshot.quotes[f.side];
  const left = quoteTimeLeftMs(quote, view.now());
  if (quote === undefined || left < limits.min_quote_time_left_ms) {
    return deny(
      'QUOTE_EXPIRED',
      quote
        ? `the ${f.side} quote of ${f.market} has ${left} ms left (need ${limits.min_quote_time_left_ms})`
        : `no ${f.side} quote for ${f.market}`,
      {
        market: f.market,
        time_left_ms: Number.isFinite(left) ? left : -1,
        min_time_left_ms: limits.min_quote_time_left_ms,
      },
    );
  }
  if (f.price !== undefined) {
    const qp = new D(quote.value.price);
    const limit = toDecimal(f.price);
    const worse = f.side === 'BUY' ? qp.gt(limit) : qp.lt(limit);
    if (worse)
      return deny('PRICE_BAND', `quote price ${qp.toFixed()} is worse than the limit ${limit.toFixed()}`, {
        quote_price: qp.toFixed(),
        limit_price: limit.toFixed(),
      });
  }
  return undefined;
}
