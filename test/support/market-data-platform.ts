/**
 * A loopback platform for market data only (127.0.0.1, port 0): the OAuth2 token endpoint,
 * ListPrices, GetTicker and GetOrderBook. Every reply body is distinct (prices move by one per
 * response) and is logged as sent, so a test can match what the client parsed against what went
 * out. The server itself never calls JSON.parse: GET requests carry no body, and the token
 * request's form body is read with URLSearchParams, so a spy on JSON.parse in the same process
 * sees only the client's parses.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../src/clock/index.js';

export interface SentReply {
  /** Operation the reply answered (OAuthToken, ListPrices, GetTicker, GetOrderBook, or NotFound). */
  readonly operation: string;
  readonly status: number;
  /** The JSON body exactly as written to the socket. */
  readonly body: string;
}

export interface MarketDataPlatform {
  readonly apiUrl: string;
  readonly tokenUrl: string;
  /** Replies with a JSON body, in the order they were written. */
  readonly sent: SentReply[];
  /** ListPrices current_price values sent, in order (one BTCUSD item per reply). */
  readonly pricesSent: number[];
  close(): Promise<void>;
}

/** Starts the platform; `snapshot_at` stamps come from `clock`. */
export async function startMarketDataPlatform(clock: Pick<Clock, 'now'>): Promise<MarketDataPlatform> {
  const sent: SentReply[] = [];
  const pricesSent: number[] = [];
  let n = 0;
  const reply = (res: ServerResponse, operation: string, status: number, value: unknown): void => {
    const body = JSON.stringify(value);
    sent.push({ operation, status, body });
    res.writeHead(status, { 'content-type': status < 400 ? 'application/json' : 'application/problem+json' });
    res.end(body);
  };
  const handle = (req: IncomingMessage, res: ServerResponse, text: string): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const at = new Date(clock.now()).toISOString();
    const p = 60_000 + ++n;
    if (req.method === 'POST' && url.pathname === '/oauth2/token') {
      const scope = new URLSearchParams(text).get('scope') ?? '';
      return reply(res, 'OAuthToken', 200, { access_token: `md-token-${n}`, expires_in: 3599, token_type: 'bearer', scope });
    }
    if (req.method === 'GET' && url.pathname === '/v2/all-markets/prices') {
      const markets = url.searchParams.getAll('markets').flatMap((m) => m.split(','));
      pricesSent.push(p);
      return reply(res, 'ListPrices', 200, { items: markets.map((market) => ({ market, current_price: `${p}.25`, yesterday_price: '59000.00', snapshot_at: at })) });
    }
    const m = /^\/v2\/markets\/([A-Z]+)\/(ticker|order-book)$/.exec(url.pathname);
    if (req.method === 'GET' && m?.[2] === 'ticker') {
      return reply(res, 'GetTicker', 200, {
        market: m[1],
        best_bid: { price: `${p - 1}.00`, amount: '0.5' },
        best_ask: { price: `${p + 1}.00`, amount: '0.7' },
        last_execution: { price: `${p}.00`, amount: '0.01' },
        today: { high: '61000.00', low: '59000.00', open: '60000.00', volume: '12.5' },
        snapshot_at: at,
      });
    }
    if (req.method === 'GET' && m?.[2] === 'order-book') {
      return reply(res, 'GetOrderBook', 200, {
        market: m[1],
        bids: [{ price: `${p - 1}.00`, amount: '0.5' }, { price: `${p - 2}.00`, amount: '1.5' }],
        asks: [{ price: `${p + 1}.00`, amount: '0.7' }, { price: `${p + 2}.00`, amount: '2' }],
      });
    }
    return reply(res, 'NotFound', 404, { type: 'about:blank', title: 'Not Found', status: 404, detail: `no route ${req.method ?? ''} ${url.pathname}` });
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `${origin}/v2`,
    tokenUrl: `${origin}/oauth2/token`,
    sent,
    pricesSent,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
