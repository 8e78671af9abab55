import { D, type Dec } from '../../core/decimal.js';
import { splitMarket } from '../../core/markets.js';
import { FX_PER_USD, SIMULATED_MARKETS, marketSpec } from '../market/catalog.js';
import { SimError } from '../errors.js';
import { MarketState } from './market-state.js';
import { FractalPriceModel, type PriceModel, ReplayPriceModel, ScaledPriceModel } from '../market/price-model.js';
import { type PriceSeriesLike } from '../prices/price-data.js';

export interface MarketRegistryOptions {
  readonly seed: number;
  readonly tickMs: number;
  readonly startedAt: number;
  readonly earliestMs: number;
  readonly replay?: Readonly<Record<string, { readonly series: PriceSeriesLike; readonly offsetMs?: number }>>;
}

/**
 * The sim's markets and price models, made on first use: a market's live state (books, resting
 * orders, tape) and the price path behind it (synthetic, or a replayed price file).
 */
export class MarketRegistry {
  readonly markets = new Map<string, MarketState>();
  private readonly models = new Map<string, PriceModel>();

  constructor(private readonly o: MarketRegistryOptions) {}

  /** The live state of one market; throws not-found for a market the sim does not simulate. */
  market(market: string): MarketState {
    let state = this.markets.get(market);
    if (state === undefined) {
      if (!SIMULATED_MARKETS.includes(market)) throw new SimError('not-found', `market ${market} is not available`);
      state = new MarketState(marketSpec(market), this.model(market), this.o.seed, this.o.tickMs, this.o.earliestMs);
      this.markets.set(market, state);
    }
    return state;
  }

  /** Markets with bot orders that need per-tick work. */
  active(): MarketState[] {
    return [...this.markets.values()].filter((m) => m.isActive());
  }

  model(market: string): PriceModel {
    let model = this.models.get(market);
    if (model === undefined) {
      const spec = marketSpec(market);
      const replay = this.o.replay?.[market];
      if (replay !== undefined) {
        model = new ReplayPriceModel(replay.series, replay.offsetMs ?? this.o.startedAt - (replay.series.times[0] ?? 0));
      } else {
        model = new ScaledPriceModel(new FractalPriceModel(this.o.seed, spec.base, spec.asset.usdPrice, spec.asset.annualVol), spec.fx);
      }
      this.models.set(market, model);
    }
    return model;
  }

  /** USD per unit of an asset at `atMs`: fixed FX for fiat, the simulated mid for crypto (0 if unknown). */
  usdPrice(asset: string, atMs: number): Dec {
    const fx = FX_PER_USD[asset];
    if (fx !== undefined) return new D(1).div(fx);
    const market = SIMULATED_MARKETS.find((m) => splitMarket(m).base === asset);
    if (market === undefined) return new D(0);
    return new D((this.model(market).priceAt(atMs) / marketSpec(market).fx).toFixed(8));
  }
}
