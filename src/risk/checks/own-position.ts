import type { Dec, DenialReason, MarketSymbol } from '../../core/index.js';
import { compare, exactOfDecimal, toDecimal, toText } from '../../core/exact.js';
import { deny } from '../denial.js';
import type { TradeFacts } from '../facts.js';

/** Whose a market's position is: what the gate asks to keep strategies that share a market apart. */
export interface Ownership {
  /** Whether sells in `market` are held to the selling strategy's own position (`risk.positions: per_strategy`, the default). */
  restricted(market: MarketSymbol): boolean;
  /** The strategy's own amount in the market, less its open sells. */
  ownSellable(strategy: string, market: MarketSymbol): Dec;
}

/**
 * A sell (an order or a quote execution) may take no more than the selling strategy's own position
 * where each strategy owns its position (`risk.positions: per_strategy`, the default): another
 * strategy's inventory, and a balance no strategy holds (until `strategies[].holdings` assigns it),
 * are not its to sell, whether or not another strategy trades the market. Under `shared` the
 * strategies are held to the balance alone (checkBalance).
 */
export function checkOwnPosition(f: TradeFacts, ownership: Ownership | undefined): DenialReason | undefined {
  if (f.side !== 'SELL' || ownership === undefined || !ownership.restricted(f.market)) return undefined;
  const strategy = f.intent.strategy;
  // a sell sized in the quote asset counts at the price it converts at; one that cannot be valued is not let through unchecked
  const asked = f.baseEquivalent;
  if (asked === undefined) {
    return deny(
      'OWN_POSITION',
      `strategy ${strategy} sells ${f.quoteAmount ? toText(f.quoteAmount) : '?'} ${f.quote} of ${f.base} in ${f.market}, but no price is known to tell how much ${f.base} that is, so it cannot be held to its own position: size the sell in ${f.base} (baseAmount), or wait for a price`,
      {
        strategy,
        market: f.market,
        asset: f.base,
      },
    );
  }
  const own = ownership.ownSellable(strategy, f.market);
  const ownExact = exactOfDecimal(own);
  if (ownExact !== undefined ? compare(asked, ownExact) <= 0 : !toDecimal(asked).gt(own)) return undefined;
  const required = toText(asked);
  return deny(
    'OWN_POSITION',
    `strategy ${strategy} sells ${required} ${f.base} but holds ${own.toFixed()} ${f.base} of its own in ${f.market} (not counting its open sells): another strategy's inventory, or a balance no strategy holds, is not its to sell (strategies[].holdings assigns such a balance to a strategy; risk.positions: shared lets the strategies of a market share one position)`,
    {
      strategy,
      market: f.market,
      asset: f.base,
      required,
      own: own.toFixed(),
    },
  );
}
