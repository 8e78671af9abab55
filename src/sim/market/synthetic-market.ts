import { type Rng } from '../../core/rng.js';
import { type MarketSpec } from './catalog.js';
import { hashLabel, hashSlot, poisson, rngFor } from '../hash.js';
import { type PriceModel } from './price-model.js';

/** One level of the synthetic book: price as a number and as its wire text, amount in base units. */
export interface SynthLevel {
  readonly price: number;
  readonly priceText: string;
  readonly amount: number;
}

export interface SynthBook {
  readonly tick: number;
  readonly mid: number;
  /** Best first: bids descending, asks ascending. */
  readonly bids: readonly SynthLevel[];
  readonly asks: readonly SynthLevel[];
}

/** A trade between two simulated participants; `side` is the taker's side. */
export interface BackgroundTrade {
  readonly matchNumber: string;
  readonly side: 'BUY' | 'SELL';
  readonly price: number;
  readonly priceText: string;
  readonly amount: number;
  readonly at: number;
}

const LEVELS = 10;
const MATCH_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The other participants of one market, as a pure function of (seed, market, tick): a book of
 * several levels per side around mid and a tape of background trades. Nothing is stored, so the
 * same tick always looks the same whether it is generated live, for history, or twice.
 */
export class SyntheticMarket {
  private readonly key: number;
  private readonly tickSize: number;
  private cached: SynthBook | undefined;

  constructor(
    readonly spec: MarketSpec,
    readonly model: PriceModel,
    seed: number,
    readonly tickMs: number,
  ) {
    this.key = hashSlot(hashLabel(spec.market), seed >>> 0);
    this.tickSize = 10 ** -spec.priceDecimals;
  }

  tickOf(atMs: number): number {
    return Math.floor(atMs / this.tickMs);
  }

  /** The synthetic book at a tick (the most recent one is cached). */
  book(tick: number): SynthBook {
    if (this.cached?.tick === tick) return this.cached;
    const rng = rngFor(hashSlot(this.key, 1), tick);
    const mid = this.model.priceAt(tick * this.tickMs);
    const { spreadBps, levelUsd } = this.spec.asset;
    const half = Math.max(this.tickSize, (mid * spreadBps) / 20_000);
    const step = Math.max(this.tickSize, (mid * spreadBps) / 10_000);
    const unitUsd = mid / this.spec.fx;
    const asks: SynthLevel[] = [];
    const bids: SynthLevel[] = [];
    for (let i = 0; i < LEVELS; i++) {
      const prevAsk = asks[i - 1]?.price ?? 0;
      const prevBid = bids[i - 1]?.price ?? Number.POSITIVE_INFINITY;
      const ask = Math.max(this.roundTick(mid + half + i * step, Math.ceil), prevAsk + this.tickSize);
      const bid = Math.min(this.roundTick(mid - half - i * step, Math.floor), prevBid - this.tickSize);
      asks.push(this.level(ask, levelUsd / unitUsd, rng));
      if (bid > 0) bids.push(this.level(bid, levelUsd / unitUsd, rng));
    }
    this.cached = { tick, mid, bids, asks };
    return this.cached;
  }

  /** Background trades during a tick, in time order. */
  trades(tick: number): BackgroundTrade[] {
    const rng = rngFor(hashSlot(this.key, 2), tick);
    const count = poisson(rng, (this.spec.asset.tradesPerSecond * this.tickMs) / 1000);
    if (count === 0) return [];
    const book = this.book(tick);
    const unit = (this.spec.asset.levelUsd * 0.15) / (book.mid / this.spec.fx);
    const out: BackgroundTrade[] = [];
    const offsets = Array.from({ length: count }, () => rng.next()).sort((a, b) => a - b);
    for (let i = 0; i < count; i++) {
      const side = rng.chance(0.5) ? 'BUY' : 'SELL';
      const level = side === 'BUY' ? book.asks[0] : book.bids[0];
      if (level === undefined) continue;
      const amount = roundAmount(unit * Math.exp(rng.normal() * 0.8));
      out.push({
        matchNumber: this.matchNumber(tick, i),
        side,
        price: level.price,
        priceText: level.priceText,
        amount,
        at: Math.floor((tick + offsets[i]!) * this.tickMs),
      });
    }
    return out;
  }

  private level(price: number, meanAmount: number, rng: Rng): SynthLevel {
    return { price, priceText: price.toFixed(this.spec.priceDecimals), amount: roundAmount(meanAmount * Math.exp(rng.normal() * 0.5)) };
  }

  private roundTick(price: number, round: (x: number) => number): number {
    const scaled = round(Number((price / this.tickSize).toFixed(6)));
    return Number((scaled * this.tickSize).toFixed(this.spec.priceDecimals));
  }

  private matchNumber(tick: number, index: number): string {
    let h = hashSlot(hashSlot(this.key, 3), tick * 64 + index);
    let text = '';
    for (let i = 0; i < 12; i++) {
      if (i === 6) h = hashSlot(h, index);
      text += MATCH_ALPHABET[h % 36];
      h = Math.floor(h / 36);
    }
    return text;
  }
}

/** Rounds a base amount to 8 decimals, never to zero. */
function roundAmount(x: number): number {
  return Math.max(1e-8, Math.round(x * 1e8) / 1e8);
}
