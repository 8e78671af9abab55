import { HISTORICAL_MARKETS, MARKET_DATA_MARKETS, PRICE_MARKETS, INCREMENTS_MS, type Increment } from '../../core/markets.js';
import { tradingInstruments } from '../../platform/instruments.js';
import { isoTime } from '../../sim/time.js';
import { badRequest } from '../problem.js';
import { type Route, type RouteContext } from '../router.js';
import { wirePrice, wireTicker } from '../wire.js';

/** Validates a `{market}` path parameter against the list the operation accepts. */
function pathMarket(ctx: RouteContext, allowed: readonly string[]): string {
  const market = ctx.params.market ?? '';
  if (!allowed.includes(market))
    throw badRequest('market', `${JSON.stringify(market)} is not available here: use one of ${allowed.join(', ')}`);
  return market;
}

function historicalPrices(ctx: RouteContext): unknown {
  const market = pathMarket(ctx, HISTORICAL_MARKETS);
  const q = ctx.query;
  const increment = q.oneOf('increment', Object.keys(INCREMENTS_MS) as Increment[]);
  const maxDataPoints = q.int('max_data_points', 1, 1_000_000_000);
  if ((increment === undefined) === (maxDataPoints === undefined)) {
    throw badRequest(increment === undefined ? 'increment' : 'max_data_points', 'give exactly one of increment and max_data_points');
  }
  const beginMs = q.time('range.begin');
  const endMs = q.time('range.end');
  if (beginMs !== undefined && endMs !== undefined && endMs < beginMs) throw badRequest('range.end', 'must not be before range.begin');
  const page = ctx.sim.historicalPrices(market, {
    ...(increment !== undefined ? { increment } : { maxDataPoints: maxDataPoints! }),
    ...(beginMs !== undefined ? { beginMs } : {}),
    ...(endMs !== undefined ? { endMs } : {}),
    offset: q.int('pagination.offset', 0, 2_147_483_647) ?? 0,
    limit: q.int('pagination.limit', 1, 1000) ?? 100,
  });
  const items = page.items.map((p) => ({ average_price: p.averagePrice, timestamp: isoTime(p.timestamp) }));
  return ctx.shapes.listKey === 'prices'
    ? { market, prices: items, total_count: page.totalCount }
    : { total_count: page.totalCount, items };
}

function listPrices(ctx: RouteContext): unknown {
  const markets = ctx.query.array('markets');
  if (markets.length === 0)
    throw badRequest('markets', `required: repeat it per market, e.g. markets=BTCUSD&markets=ETHUSD (one of ${PRICE_MARKETS.join(', ')})`);
  for (const m of markets)
    if (!(PRICE_MARKETS as readonly string[]).includes(m))
      throw badRequest('markets', `${JSON.stringify(m)} is not a price market: use ${PRICE_MARKETS.join(', ')}`);
  const items = markets.map((m) => wirePrice(ctx.sim.price(m)));
  return ctx.shapes.listKey === 'prices' ? { prices: items } : { items };
}

/** Market data and pricing: public except ListHistoricalPrices. */
export const MARKET_DATA_ROUTES: readonly Route[] = [
  {
    operation: 'ListMarkets',
    method: 'GET',
    path: '/v2/markets',
    scope: null,
    handler: () => ({
      // the platform's instrument table (src/platform/instruments.ts), trading markets in ListMarkets order
      markets: tradingInstruments().map((i) => ({
        market: i.market,
        base_asset: i.base,
        quote_asset: i.quote,
        tick_rate: i.tick.toFixed(i.priceDecimals),
      })),
    }),
  },
  {
    operation: 'GetOrderBook',
    method: 'GET',
    path: '/v2/markets/:market/order-book',
    scope: null,
    handler: (ctx) => {
      const market = pathMarket(ctx, MARKET_DATA_MARKETS);
      return { market, ...ctx.sim.orderBook(market) };
    },
  },
  {
    operation: 'ListRecentExecutions',
    method: 'GET',
    path: '/v2/markets/:market/recent-executions',
    scope: null,
    handler: (ctx) => ({
      items: ctx.sim
        .recentExecutions(pathMarket(ctx, MARKET_DATA_MARKETS))
        .map((t) => ({ match_number: t.matchNumber, price: t.price, amount: t.amount, executed_at: isoTime(t.at) })),
    }),
  },
  {
    operation: 'GetTicker',
    method: 'GET',
    path: '/v2/markets/:market/ticker',
    scope: null,
    handler: (ctx) => wireTicker(ctx.sim.ticker(pathMarket(ctx, MARKET_DATA_MARKETS))),
  },
  {
    operation: 'ListTickers',
    method: 'GET',
    path: '/v2/all-markets/ticker',
    scope: null,
    handler: (ctx) => {
      const tickers = PRICE_MARKETS.map((m) => wireTicker(ctx.sim.ticker(m)));
      return ctx.shapes.tickers === 'array' ? tickers : { tickers };
    },
  },
  { operation: 'ListPrices', method: 'GET', path: '/v2/all-markets/prices', scope: null, handler: listPrices },
  {
    operation: 'ListHistoricalPrices',
    method: 'GET',
    path: '/v2/markets/:market/historical-prices',
    scope: 'exchange:historical_prices',
    handler: historicalPrices,
  },
];
