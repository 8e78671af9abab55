import type { DenialReason } from '../../core/index.js';
import { deny } from '../denial.js';
import type { TradeFacts } from '../facts.js';

/** Order-type rules of the platform: which amount and price fields each type needs. */
export function checkOrderShape(f: TradeFacts): DenialReason | undefined {
  const i = f.intent;
  if (i.kind !== 'place-order') return undefined;
  switch (i.type) {
    case 'MARKET':
      if (f.side === 'BUY' && f.quoteAmount === undefined) return deny('INVALID_INTENT', 'a MARKET buy is sized by quoteAmount', { field: 'quoteAmount' });
      if (f.side === 'SELL' && f.baseAmount === undefined) return deny('INVALID_INTENT', 'a MARKET sell is sized by baseAmount', { field: 'baseAmount' });
      if (i.price !== undefined) return deny('INVALID_INTENT', 'a MARKET order takes no price', { field: 'price' });
      return undefined;
    case 'LIMIT':
    case 'POST_ONLY_LIMIT':
      if (f.baseAmount === undefined) return deny('INVALID_INTENT', `a ${i.type} order is sized by baseAmount`, { field: 'baseAmount' });
      if (f.price === undefined) return deny('INVALID_INTENT', `a ${i.type} order needs a price`, { field: 'price' });
      return undefined;
    case 'STOP_MARKET':
    case 'STOP_LIMIT':
      if (f.side !== 'SELL') return deny('INVALID_INTENT', 'stop orders are sell-only on the platform', { field: 'side' });
      if (f.baseAmount === undefined) return deny('INVALID_INTENT', 'a stop order is sized by baseAmount', { field: 'baseAmount' });
      if (i.stopPrice === undefined) return deny('INVALID_INTENT', 'a stop order needs stopPrice', { field: 'stopPrice' });
      if (i.type === 'STOP_LIMIT' && f.price === undefined) return deny('INVALID_INTENT', 'a STOP_LIMIT order needs a price', { field: 'price' });
      return undefined;
    default:
      return deny('INVALID_INTENT', `unknown order type ${JSON.stringify(i.type)}`, { field: 'type' });
  }
}
