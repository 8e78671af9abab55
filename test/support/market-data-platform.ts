/**
 * A loopback platform for market data only, on `FakePlatform` (127.0.0.1, port 0): its OAuth2
 * token endpoint, and ListPrices, GetTicker and GetOrderBook answering any caller. Every reply body
 * is distinct (prices move by one per response) and is logged as sent, so a test can match what
 * the client parsed against what went out. The server itself never calls JSON.parse: GET requests
 * carry no body (FakePlatform parses only a non-empty one), and the token request's form body is
 * read with URLSearchParams, so a spy on JSON.parse in the same process sees only the client's parses.
 */
import type { Clock } from '../../src/clock/index.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET } from '../../src/config/index.js';
import { FakePlatform, problem, type FakeRequest, type Reply } from './fake-platform.js';

export interface SentReply {
  /** Operation the reply answered (ListPrices, GetTicker, GetOrderBook, or NotFound). */
  readonly operation: string;
  readonly status: number;
  /** The JSON body exactly as written to the socket. */
  readonly body: string;
}

export interface MarketDataPlatform {
  readonly apiUrl: string;
  readonly tokenUrl: string;
  /**
   * Replies to API requests (under /v2), in the order the requests came, including FakePlatform's
   * 404s for unknown routes. Token replies are not listed: FakePlatform grants those (for the
   * local credential), and a test reads the granted scopes before it starts measuring.
   */
  readonly sent: SentReply[];
  /** ListPrices current_price values sent, in order (one BTCUSD item per reply). */
  readonly pricesSent: number[];
  close(): Promise<void>;
}

/** Starts the platform; `snapshot_at` stamps come from `clock`. */
export async function startMarketDataPlatform(clock: Pick<Clock, 'now'>): Promise<MarketDataPlatform> {
  const fake = await FakePlatform.start({ clientId: LOCAL_CLIENT_ID, clientSecret: LOCAL_CLIENT_SECRET });
  const replies = new Map<FakeRequest, SentReply>();
  const pricesSent: number[] = [];
  let n = 0;
  const reply = (req: FakeRequest, operation: string, value: unknown): Reply => {
    const body = JSON.stringify(value);
    replies.set(req, { operation, status: 200, body });
    return { text: body };
  };
  // the body FakePlatform writes for a /v2 request no route matched
  const notFound = (req: FakeRequest): SentReply => {
    const { json } = problem(404, 'Not Found', { detail: `no route ${req.method} ${req.path}` }) as { json: unknown };
    return { operation: 'NotFound', status: 404, body: JSON.stringify(json) };
  };
  fake.on(
    'GET',
    '/all-markets/prices',
    (req) => {
      const p = 60_000 + ++n;
      const at = new Date(clock.now()).toISOString();
      const markets = req.query.getAll('markets').flatMap((m) => m.split(','));
      pricesSent.push(p);
      return reply(req, 'ListPrices', {
        items: markets.map((market) => ({ market, current_price: `${p}.25`, yesterday_price: '59000.00', snapshot_at: at })),
      });
    },
    { public: true },
  );
  fake.on(
    'GET',
    '/markets/:market/ticker',
    (req) => {
      const p = 60_000 + ++n;
      return reply(req, 'GetTicker', {
        market: req.params.market,
        best_bid: { price: `${p - 1}.00`, amount: '0.5' },
        best_ask: { price: `${p + 1}.00`, amount: '0.7' },
        last_execution: { price: `${p}.00`, amount: '0.01' },
        today: { high: '61000.00', low: '59000.00', open: '60000.00', volume: '12.5' },
        snapshot_at: new Date(clock.now()).toISOString(),
      });
    },
    { public: true },
  );
  fake.on(
    'GET',
    '/markets/:market/order-book',
    (req) => {
      const p = 60_000 + ++n;
      return reply(req, 'GetOrderBook', {
        market: req.params.market,
        bids: [
          { price: `${p - 1}.00`, amount: '0.5' },
          { price: `${p - 2}.00`, amount: '1.5' },
        ],
        asks: [
          { price: `${p + 1}.00`, amount: '0.7' },
          { price: `${p + 2}.00`, amount: '2' },
        ],
      });
    },
    { public: true },
  );
  return {
    apiUrl: fake.baseUrl,
    tokenUrl: fake.tokenUrl,
    get sent() {
      return fake.requests.map((req) => replies.get(req) ?? notFound(req));
    },
    pricesSent,
    close: () => fake.close(),
  };
}
