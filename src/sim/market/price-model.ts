import { hashLabel, hashSlot, signedUnit } from '../hash.js';
import { type PriceSeriesLike } from '../prices/price-data.js';

/**
 * A market's mid price as a function of time. The synthetic model is stateless, so history from
 * before the server started, live ticks and a backtest all read the same path.
 */
export interface PriceModel {
  /** Mid price in the quote currency at `atMs` (epoch ms). */
  priceAt(atMs: number): number;
}

const YEAR_MS = 365.25 * 86_400_000;
const FINEST_SCALE_MS = 5_000;
const OCTAVES = 24;
/** Calibrates octave amplitudes so realised volatility matches `annualVol` (measured by a test). */
const AMPLITUDE_GAIN = 0.78;

/**
 * Fractal value noise over log price: octave o has lattice spacing 5 s × 2^o (up to ~2.6 years)
 * and amplitude ∝ √spacing, which gives Brownian-like scaling of returns at every horizon with no
 * state: any instant costs 24 hashed lattice lookups.
 */
export class FractalPriceModel implements PriceModel {
  private readonly keys = new Uint32Array(OCTAVES);
  private readonly scales = new Float64Array(OCTAVES);
  private readonly amps = new Float64Array(OCTAVES);
  private readonly logAnchor: number;

  constructor(seed: number, label: string, anchorPrice: number, annualVol: number) {
    if (!(anchorPrice > 0)) throw new RangeError(`anchor price of ${label} must be > 0`);
    const base = hashSlot(hashLabel(label), seed >>> 0);
    for (let o = 0; o < OCTAVES; o++) {
      this.keys[o] = hashSlot(base, o);
      this.scales[o] = FINEST_SCALE_MS * 2 ** o;
      this.amps[o] = AMPLITUDE_GAIN * annualVol * Math.sqrt(this.scales[o]! / YEAR_MS);
    }
    this.logAnchor = Math.log(anchorPrice);
  }

  priceAt(atMs: number): number {
    let x = this.logAnchor;
    for (let o = 0; o < OCTAVES; o++) {
      const pos = atMs / this.scales[o]!;
      const k = Math.floor(pos);
      const f = pos - k;
      const w = f * f * (3 - 2 * f);
      const key = this.keys[o]!;
      const a = signedUnit(hashSlot(key, k));
      const b = signedUnit(hashSlot(key, k + 1));
      x += this.amps[o]! * (a + (b - a) * w);
    }
    return Math.exp(x);
  }
}

/** Scales another model by a constant (a base asset's USD path quoted in another currency). */
export class ScaledPriceModel implements PriceModel {
  constructor(
    private readonly inner: PriceModel,
    private readonly factor: number,
  ) {}

  priceAt(atMs: number): number {
    return this.inner.priceAt(atMs) * this.factor;
  }
}

/**
 * Replays a price file: linear interpolation between points, flat before the first and after the
 * last. `offsetMs` shifts the file in time (sim time = file time + offset), so a recorded day can
 * be replayed starting "now".
 */
export class ReplayPriceModel implements PriceModel {
  constructor(
    private readonly series: PriceSeriesLike,
    private readonly offsetMs = 0,
  ) {
    if (series.length < 1) throw new RangeError(`price series ${series.source} is empty`);
  }

  priceAt(atMs: number): number {
    const { times, prices, length } = this.series;
    const t = atMs - this.offsetMs;
    if (t <= times[0]!) return prices[0]!;
    if (t >= times[length - 1]!) return prices[length - 1]!;
    let lo = 0;
    let hi = length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (times[mid]! <= t) lo = mid;
      else hi = mid;
    }
    const t0 = times[lo]!;
    const t1 = times[hi]!;
    const p0 = prices[lo]!;
    return t1 === t0 ? p0 : p0 + ((prices[hi]! - p0) * (t - t0)) / (t1 - t0);
  }
}
