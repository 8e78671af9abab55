/**
 * Signal-to-order latency: from a complete ListPrices response body in hand to the CreateOrder
 * request body handed to the HTTP client, through the whole live path — one JSON.parse, the
 * stream decoder, the market store, the strategy, the risk gate, the SQLite journal (WAL), the
 * order executor, RestVenue and the client's validation and encoding. A loopback server answers.
 * The JSON.parse here stands in for the client's own parse of the body; that live polling parses
 * each response once, whatever the number of strategies, is asserted by
 * test/streams/one-parse.test.ts (a spy on JSON.parse over the real client and polling source), so
 * the bench prints no count of its own parses.
 *
 * It runs twice: as is, and with webhook notifications on (issue 23) to a receiver on 127.0.0.1 that
 * accepts connections and never answers, one notification queued per signal (the worst case: every
 * signal a fill). Delivery must never hold trading up: the two figures should match, the queue stays
 * at its cap and the overflow is dropped (counted). The second of the two runs tends to read worse
 * (a bigger heap): SIGNAL_LATENCY_ORDER=hanging-first swaps them to check which way a gap comes from.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createApiClient } from '../src/api/index.js';
import { LiveClock } from '../src/clock/index.js';
import { Kernel, StrategyRunner } from '../src/engine/index.js';
import { Journal } from '../src/exec/index.js';
import { RiskLimitsSchema } from '../src/risk/index.js';
import { balanceFromWire } from '../src/state/index.js';
import { Notifier } from '../src/ops/index.js';
import { defineStrategy } from '../src/strategy/index.js';
import { RestVenue } from '../src/venue/index.js';
import { ResponseDecoder } from '../src/venue/polling/index.js';

const SIGNALS = Number(process.env.SIGNALS ?? 100_000);
const WARMUP = 5_000;

const everyPrice = defineStrategy({
  name: 'every-price',
  description: 'one limit buy per price update (latency probe)',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => ({
    onEvent: (e) =>
      e.kind === 'price'
        ? {
            kind: 'place-order',
            market: 'BTCUSD',
            side: 'BUY',
            type: 'LIMIT',
            baseAmount: '0.001',
            price: (Math.floor(e.price * 0.999 * 100) / 100).toFixed(2),
          }
        : undefined,
  }),
});

function platform(): Promise<Server> {
  let n = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/oauth2/token')) {
        res.end(
          JSON.stringify({
            access_token: 'bench-token',
            expires_in: 3599,
            token_type: 'bearer',
            scope: 'exchange:read_order exchange:write_order funding:read_profile',
          }),
        );
        return;
      }
      // a complete Order record for the order sent (its size and price echoed): an answer missing
      // them is malformed, an unknown outcome the executor resolves by ref_id, and the order would
      // stay reserved in the risk view, so every later signal paid for all earlier ones
      const sent = JSON.parse(body || '{}') as { ref_id?: string; base_amount?: string; price?: string };
      res.end(
        JSON.stringify({
          id: `o-${++n}`,
          ref_id: sent.ref_id,
          status: 'OPEN',
          side: 'BUY',
          market: 'BTCUSD',
          type: 'LIMIT',
          base_amount: sent.base_amount ?? '0.001',
          price: sent.price ?? '1.00',
          amount_filled: '0',
        }),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Accepts connections and never answers (nor closes them): the webhook receiver that hangs. */
function hangingReceiver(): Promise<{ server: TcpServer; url: string; close(): void }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        close: () => {
          for (const s of sockets) s.destroy();
          server.close();
        },
      }),
    ),
  );
}

export async function run(): Promise<void> {
  const order = process.env.SIGNAL_LATENCY_ORDER === 'hanging-first' ? [true, false] : [false, true];
  let notes = '';
  for (const withWebhooks of order) {
    const m = await measure(withWebhooks);
    report(withWebhooks ? 'webhooks to a receiver that never answers (one per signal)' : 'without notifications', m.lat);
    if (withWebhooks) notes = m.notes;
  }
  const hanging = { notes };
  process.stdout.write(`notifier during that run: ${hanging.notes}\n`);
  process.stdout.write(
    `targets: p50 ≤ 100, p99 ≤ 500, p99.9 ≤ 2000 (goal p50 ≤ 50, p99 ≤ 250), with or without a hanging webhook receiver\n`,
  );
  process.stdout.write(
    'one JSON.parse per response shared by all strategies: asserted by test/streams/one-parse.test.ts (not counted here)\n',
  );
}

function report(label: string, lat: Float64Array): void {
  const q = (p: number): string => (lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] as number).toFixed(1);
  process.stdout.write(
    `signal → order body handed to the HTTP client, ${label}, ${SIGNALS} signals after ${WARMUP} warm-up (µs): p50 ${q(0.5)}  p99 ${q(0.99)}  p99.9 ${q(0.999)}  max ${q(1)}\n`,
  );
}

async function measure(withWebhooks: boolean): Promise<{ lat: Float64Array; notes: string }> {
  const server = await platform();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clock = new LiveClock();
  let handedAt = 0n;
  const fast = { name: 'bench', pattern: '*', ratePerSec: 1e9, burst: 1e9 };
  const api = createApiClient({
    apiUrl: `${url}/v2`,
    tokenUrl: `${url}/oauth2/token`,
    clientId: 'tradeloop-local',
    clientSecret: 'tradeloop-local-secret',
    localCredential: true,
    scopes: ['exchange:read_order', 'exchange:write_order', 'funding:read_profile'],
    clock,
    budgets: [],
    defaultBudget: fast,
    rateLimitSafety: 1,
    onRequest: (e) => {
      if (e.operation === 'CreateOrder') handedAt = process.hrtime.bigint();
    },
  });
  const journal = new Journal(join(mkdtempSync(join(tmpdir(), 'tradeloop-bench-')), 'journal.sqlite'));
  const kernel = new Kernel(
    { clock, venue: new RestVenue(api, 'p'), journal },
    {
      limits: RiskLimitsSchema.parse({ max_intents_per_minute: 1_000_000_000, max_open_orders: 1_000_000_000 }),
      refPrefix: 'bench',
      fillsSinceMs: 0,
      strategies: (ids) => [new StrategyRunner('every-price', everyPrice, {}, ['BTCUSD'], ids)],
    },
  );
  const { account, gate, engine } = kernel;
  const receiver = withWebhooks ? await hangingReceiver() : undefined;
  const notifier =
    receiver &&
    new Notifier({
      clock,
      url: receiver.url,
      secret: 'bench-webhook-secret-0123',
      events: ['fill'],
      capacity: 1_000,
      timeoutMs: 5_000,
      maxAttempts: 6,
      source: 'bench',
    });
  // one notification per decision, as a fill would make: queued by the same synchronous path as a live run's
  const sub = notifier && kernel.decisions$.subscribe((d) => notifier.notify('fill', { refId: d.intent.intentId, at: d.at }));
  const decoder = new ResponseDecoder();
  const usd = balanceFromWire('USD', '1000000000', '0');
  const lat = new Float64Array(SIGNALS);
  for (let i = 0; i < WARMUP + SIGNALS; i++) {
    if (i % 1_000 === 0) journal.checkpoint(); // the runner checkpoints on a timer, between orders
    account.apply({ kind: 'balances', at: clock.now(), items: [usd] });
    const price = (60_000 + (i % 200) - 100 + 0.37).toFixed(2);
    const body = `{"items":[{"market":"BTCUSD","current_price":"${price}","yesterday_price":"59000.00","snapshot_at":"2025-03-04T10:22:31.512204Z"}]}`;
    handedAt = 0n;
    const t0 = process.hrtime.bigint();
    const parsed = JSON.parse(body) as unknown;
    for (const e of decoder.decode({ kind: 'prices' }, parsed, clock.now()).market) engine.onMarketEvent(e);
    await engine.drain();
    if (handedAt === 0n) throw new Error(`signal ${i} produced no order request (denials: ${JSON.stringify(gate.stats())})`);
    if (i >= WARMUP) lat[i - WARMUP] = Number(handedAt - t0) / 1000;
  }
  lat.sort();
  if (journal.intents({ limit: 1 }).length === 0) throw new Error('no journal rows written');
  const stats = notifier?.stats();
  const notes = stats
    ? `queued ${stats.queued} (cap ${stats.capacity}), dropped ${stats.dropped}, sent ${stats.sent}, failed attempts ${stats.failedAttempts}`
    : '';
  sub?.unsubscribe();
  notifier?.close();
  receiver?.close();
  journal.close();
  await api.close();
  server.close();
  return { lat, notes };
}
