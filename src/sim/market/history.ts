import { InputError } from '../../core/errors.js';
import { type MarketSpec } from './catalog.js';
import { hashLabel, hashSlot, rngFor } from '../hash.js';
import { type PriceModel } from './price-model.js';
import { MINUTE_MS } from '../time.js';
import { INCREMENTS_MS, type Increment } from '../../core/markets.js';

export interface HistoricalQuery {
  readonly increment?: Increment;
  readonly maxDataPoints?: number;
  readonly beginMs?: number;
  readonly endMs?: number;
  readonly offset: number;
  readonly limit: number;
}

export interface HistoricalPoint {
  readonly timestamp: number;
  readonly averagePrice: string;
}

export interface HistoricalPage {
  readonly increment: Increment;
  readonly totalCount: number;
  readonly items: readonly HistoricalPoint[];
}

/** Open/high/low/volume of a window, as wire strings. */
export interface WindowStats {
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
  readonly vwap: string;
  readonly fromMs: number;
  readonly toMs: number;
}

interface Bar {
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

const SAMPLES_PER_BUCKET = 8;
const BAR_SAMPLES = 6;
const MAX_CACHED_BARS = 3_000;

/**
 * Prices of the past, generated on demand from the stateless price model: historical averages
 * (any range, any increment, paged without generating skipped points) and ticker statistics from
 * one-minute bars (cached, bounded).
 */
export class MarketHistory {
  private readonly bars = new Map<number, Bar>();
  private readonly volumeKey: number;

  constructor(
    readonly spec: MarketSpec,
    private readonly model: PriceModel,
    seed: number,
    /** Earliest instant with history (epoch ms). */
    readonly earliestMs: number,
  ) {
    this.volumeKey = hashSlot(hashLabel(`${spec.market}/volume`), seed >>> 0);
  }

  /** Average prices per bucket; without `endMs` a final point carries the current mid. */
  historical(query: HistoricalQuery, nowMs: number): HistoricalPage {
    const begin = Math.max(query.beginMs ?? this.earliestMs, this.earliestMs);
    const end = Math.min(query.endMs ?? nowMs, nowMs);
    const increment = query.increment ?? this.pickIncrement(begin, end, query.maxDataPoints ?? 0);
    const inc = INCREMENTS_MS[increment];
    const first = Math.ceil(begin / inc) * inc;
    const complete = end >= first + inc ? Math.floor((end - first) / inc) : 0;
    const withCurrent = query.endMs === undefined;
    const totalCount = complete + (withCurrent ? 1 : 0);
    const items: HistoricalPoint[] = [];
    const stop = Math.min(totalCount, query.offset + query.limit);
    for (let i = query.offset; i < stop; i++) {
      if (i < complete) items.push({ timestamp: first + i * inc, averagePrice: this.text(this.average(first + i * inc, inc)) });
      else items.push({ timestamp: nowMs, averagePrice: this.text(this.model.priceAt(nowMs)) });
    }
    return { increment, totalCount, items };
  }

  /** Statistics of [fromMs, toMs] from one-minute bars. */
  stats(fromMs: number, toMs: number): WindowStats {
    const firstMinute = Math.floor(fromMs / MINUTE_MS);
    const lastMinute = Math.floor(toMs / MINUTE_MS);
    let high = Number.NEGATIVE_INFINITY;
    let low = Number.POSITIVE_INFINITY;
    let volume = 0;
    let notional = 0;
    for (let m = firstMinute; m <= lastMinute; m++) {
      const bar = m === lastMinute ? this.computeBar(m, toMs) : this.bar(m);
      high = Math.max(high, bar.high);
      low = Math.min(low, bar.low);
      volume += bar.volume;
      notional += bar.volume * ((bar.open + bar.close) / 2);
    }
    this.prune(firstMinute);
    const open = this.model.priceAt(fromMs);
    const close = this.model.priceAt(toMs);
    return {
      open: this.text(open),
      high: this.text(Math.max(high, open)),
      low: this.text(Math.min(low, open)),
      close: this.text(close),
      volume: volume.toFixed(8),
      vwap: this.text(volume > 0 ? notional / volume : close),
      fromMs,
      toMs,
    };
  }

  /** Time-weighted average of the mid over one bucket (sampled at bucket midpoints). */
  average(startMs: number, lengthMs: number): number {
    let sum = 0;
    for (let j = 0; j < SAMPLES_PER_BUCKET; j++) sum += this.model.priceAt(startMs + ((j + 0.5) * lengthMs) / SAMPLES_PER_BUCKET);
    return sum / SAMPLES_PER_BUCKET;
  }

  /** A price as a wire string with the market's decimals. */
  text(price: number): string {
    return price.toFixed(this.spec.priceDecimals);
  }

  private pickIncrement(begin: number, end: number, maxPoints: number): Increment {
    const names = Object.keys(INCREMENTS_MS) as Increment[];
    for (const name of names) {
      const inc = INCREMENTS_MS[name];
      if (Math.floor(Math.max(0, end - begin) / inc) <= maxPoints) return name;
    }
    if (maxPoints <= 0) throw new InputError('max_data_points', 'must be a positive integer');
    return 'FOUR_WEEKS';
  }

  private bar(minute: number): Bar {
    let bar = this.bars.get(minute);
    if (bar === undefined) {
      bar = this.computeBar(minute, (minute + 1) * MINUTE_MS);
      this.bars.set(minute, bar);
    }
    return bar;
  }

  private computeBar(minute: number, untilMs: number): Bar {
    const start = minute * MINUTE_MS;
    const span = Math.max(0, Math.min(MINUTE_MS, untilMs - start));
    const open = this.model.priceAt(start);
    let high = open;
    let low = open;
    let close = open;
    for (let j = 1; j <= BAR_SAMPLES; j++) {
      close = this.model.priceAt(start + (span * j) / BAR_SAMPLES);
      high = Math.max(high, close);
      low = Math.min(low, close);
    }
    const rng = rngFor(this.volumeKey, minute);
    const perMinute = this.spec.asset.tradesPerSecond * 60 * ((this.spec.asset.levelUsd * 0.15) / (open / this.spec.fx));
    const volume = (perMinute * Math.exp(rng.normal() * 0.5) * span) / MINUTE_MS;
    return { open, high, low, close, volume };
  }

  private prune(oldestMinute: number): void {
    if (this.bars.size <= MAX_CACHED_BARS) return;
    for (const key of this.bars.keys()) if (key < oldestMinute) this.bars.delete(key);
  }
}
