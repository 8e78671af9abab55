/**
 * Webhook notifications against receivers on 127.0.0.1, on a TestClock: each event kind arrives once
 * with a valid HMAC signature; with a receiver that never answers or answers 500, queueing never
 * waits on delivery, each notification is retried with backoff, the queue stays at its cap and the
 * drops, failures and give-ups show in /metrics; each halt cause is sent once, as it comes.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import {
  Notifier,
  OpsState,
  RunMetrics,
  RunNotifications,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  WATCH_MS,
  type NotifyEvent,
} from '../../src/ops/index.js';
import { parsePrometheusText } from './prometheus-text.js';
import { stubRun } from './stub-run.js';

const SECRET = 'webhook-secret-0123456789';
const ALL: NotifyEvent[] = ['fill', 'kill-switch', 'unresolved', 'strategy-stopped', 'venue-unreachable', 'run-start', 'run-stop'];

interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A receiver that keeps every request and answers with `answer` (or never, when it returns undefined). */
async function receiver(
  answer: (r: Received) => number | undefined,
): Promise<{ url: string; got: Received[]; arrived: (n: number) => Promise<void> }> {
  const got: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const r = { headers: req.headers, body };
      got.push(r);
      for (const w of waiters.filter((x) => got.length >= x.n)) w.resolve();
      const status = answer(r);
      if (status !== undefined) res.writeHead(status).end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    arrived: (n) => (got.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
  };
}

/** Lets I/O and promise callbacks run (no time passes on the TestClock) until `check` holds. */
async function settle(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if (check()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${what}`);
}

function notifier(clock: TestClock, url: string, o: Partial<{ capacity: number; timeoutMs: number; maxAttempts: number }> = {}): Notifier {
  let n = 0;
  return new Notifier({
    clock,
    url,
    secret: SECRET,
    events: ALL,
    capacity: o.capacity ?? 100,
    timeoutMs: o.timeoutMs ?? 5_000,
    maxAttempts: o.maxAttempts ?? 4,
    source: 'bot1',
    newId: () => `d${++n}`,
  });
}

const fill = (i: number) => ({
  kind: 'filled' as const,
  refId: `r${i}`,
  orderId: `o${i}`,
  fillId: `f${i}`,
  market: 'BTCUSD',
  side: 'BUY' as const,
  amount: '0.001',
  price: '50000.10',
  commission: '0.05',
  commissionAsset: 'USD',
  at: 1_000 + i,
});

describe('webhook notifications', () => {
  it('deliver each event kind once to a receiver on 127.0.0.1, signed with HMAC-SHA256 over timestamp.body', async () => {
    const clock = new TestClock(1_700_000_000_000);
    const hook = await receiver(() => 204);
    const stub = stubRun(clock, ['alpha', 'beta']);
    const n = notifier(clock, hook.url);
    const events = new RunNotifications(stub.run, n);
    events.runStarted({ environment: 'test' });
    stub.reports.next(fill(1));
    stub.reports.next({ kind: 'unresolved', refId: 'r2', message: 'timeout on CreateOrder', at: 2 });
    stub.trip('daily loss 600.00 exceeds 500');
    stub.stopStrategy('beta', 'threw: boom');
    stub.setReachability({ unreachableSince: clock.now(), consecutiveFailures: 5, probes: 1, lastError: 'ECONNREFUSED' });
    clock.advance(WATCH_MS); // the watcher looks at the run's states each second
    clock.advance(WATCH_MS); // nothing changed since: nothing sent again
    events.runStopped({ reason: 'test over' });
    await hook.arrived(7);
    await n.flush(1_000);
    expect(hook.got.map((r) => r.headers['x-tradeloop-event']).sort()).toEqual([...ALL].sort());
    for (const r of hook.got) {
      const ts = r.headers[TIMESTAMP_HEADER] as string;
      const expected = `sha256=${createHmac('sha256', SECRET).update(`${ts}.${r.body}`).digest('hex')}`;
      expect(r.headers[SIGNATURE_HEADER]).toBe(expected);
      expect(Number(ts)).toBeGreaterThanOrEqual(1_700_000_000); // the run's clock, in seconds
      expect(Number(ts)).toBeLessThanOrEqual(clock.now() / 1000);
      const body = JSON.parse(r.body) as { event: string; source: string; data: Record<string, unknown> };
      expect(body.event).toBe(r.headers['x-tradeloop-event']);
      expect(body.source).toBe('bot1');
      expect(r.body).not.toContain(SECRET);
    }
    const byKind = Object.fromEntries(hook.got.map((r) => [r.headers['x-tradeloop-event'], JSON.parse(r.body).data]));
    expect(byKind.fill).toMatchObject({ refId: 'r1', side: 'BUY', price: '50000.10' });
    expect(byKind['kill-switch']).toMatchObject({ reason: 'daily loss 600.00 exceeds 500' });
    expect(byKind['strategy-stopped']).toMatchObject({ strategy: 'beta', reason: 'threw: boom' });
    expect(byKind['venue-unreachable']).toMatchObject({ state: 'unreachable', lastError: 'ECONNREFUSED' });
    expect(n.stats()).toMatchObject({ sent: 7, failedAttempts: 0, dropped: 0, queued: 0 });
    events.close();
  });

  it('never make trading wait on a receiver that never answers: the queue stays at its cap, drops are counted in /metrics, the head is retried', async () => {
    const clock = new TestClock(1_700_000_000_000);
    const hook = await receiver(() => undefined); // holds every request open
    const stub = stubRun(clock);
    const n = notifier(clock, hook.url, { capacity: 5, timeoutMs: 2_000, maxAttempts: 3 });
    const events = new RunNotifications(stub.run, n);
    const metrics = new RunMetrics({ processMetrics: false });
    const state = new OpsState(stub.run);
    metrics.attach(stub.run, state, { notify: { webhook: () => n.stats() } });

    // 50 fills in one synchronous burst: each report is handled and the next one emitted at once
    let handled = 0;
    const sub = stub.reports.subscribe(() => handled++);
    for (let i = 0; i < 50; i++) stub.reports.next(fill(i));
    expect(handled).toBe(50); // no report waited on a delivery
    expect(n.stats()).toMatchObject({ queued: 5, dropped: 45, sent: 0 });

    await hook.arrived(1);
    const firstId = hook.got[0]?.headers['x-tradeloop-delivery'];
    clock.advance(2_000); // the attempt's timeout
    await settle(() => n.stats().failedAttempts === 1, 'the first attempt timing out');
    clock.advance(1_000); // backoff 1 s, then the same notification again
    await hook.arrived(2);
    expect(hook.got[1]?.headers['x-tradeloop-delivery']).toBe(firstId);
    for (let i = 50; i < 60; i++) stub.reports.next(fill(i));
    expect(n.stats()).toMatchObject({ queued: 5, dropped: 55 });

    const scraped = parsePrometheusText(await metrics.text());
    expect(scraped.get('tradeloop_notifications_dropped_total{channel="webhook"}')).toBe(55);
    expect(scraped.get('tradeloop_notifications_queued{channel="webhook"}')).toBe(5);
    expect(scraped.get('tradeloop_notifications_queue_capacity{channel="webhook"}')).toBe(5);
    expect(scraped.get('tradeloop_notifications_failed_attempts_total{channel="webhook"}')).toBe(1);
    expect(scraped.get('tradeloop_fills_total{market="BTCUSD",side="BUY"}')).toBe(60);
    sub.unsubscribe();
    events.close();
    n.close(); // ends the attempt in flight: no timer or request outlives the run
    await settle(() => clock.pending() === 0, 'every timer cancelled');
    expect(n.stats()).toMatchObject({ queued: 0, dropped: 60 });
    metrics.close();
    state.close();
  });

  it('retry a receiver answering 500 with backoff (1 s, 2 s) and give up after the last attempt, counting each failure', async () => {
    const clock = new TestClock(1_700_000_000_000);
    const hook = await receiver(() => 500);
    const n = notifier(clock, hook.url, { maxAttempts: 3 });
    n.notify('kill-switch', { reason: 'drawdown 12.00% exceeds 10%' });
    await hook.arrived(1);
    await settle(() => n.stats().failedAttempts === 1, 'the first 500');
    clock.advance(999);
    await settle(() => true, 'nothing');
    expect(hook.got).toHaveLength(1); // not before the backoff
    clock.advance(1);
    await hook.arrived(2);
    await settle(() => n.stats().failedAttempts === 2, 'the second 500');
    clock.advance(2_000);
    await hook.arrived(3);
    await settle(() => n.stats().gaveUp === 1, 'giving up');
    expect(n.stats()).toMatchObject({ sent: 0, failedAttempts: 3, gaveUp: 1, queued: 0 });
    expect(new Set(hook.got.map((r) => r.headers['x-tradeloop-delivery'])).size).toBe(1);
    expect(hook.got.map((r) => (JSON.parse(r.body) as { attempt: number }).attempt)).toEqual([1, 2, 3]);
  });

  it('send only the configured events', async () => {
    const clock = new TestClock(0);
    const sent: string[] = [];
    const n = new Notifier({
      clock,
      url: 'http://127.0.0.1:9/none',
      secret: SECRET,
      events: ['kill-switch'],
      capacity: 10,
      timeoutMs: 1_000,
      maxAttempts: 1,
      source: 'b',
      transport: async (r) => {
        sent.push(r.headers['x-tradeloop-event'] as string);
        return 200;
      },
    });
    n.notify('fill', {});
    n.notify('kill-switch', { reason: 'x' });
    await n.flush(1_000);
    expect(sent).toEqual(['kill-switch']);
  });

  it('send each halt cause once as it comes: a second cause during the first is sent, a lift is not', () => {
    const clock = new TestClock(0);
    const stub = stubRun(clock);
    const sent: Array<{ event: NotifyEvent; data: Record<string, unknown> }> = [];
    const events = new RunNotifications(stub.run, { notify: (event, data) => sent.push({ event, data }) });
    const ks = stub.run.kernel.gate.killSwitch;
    ks.trip('halted by an operator: lunch');
    clock.advance(WATCH_MS);
    ks.trip('ref_id a-3 already names a different record', { kind: 'ref-id-conflict', allowReducing: false });
    clock.advance(WATCH_MS);
    ks.lift(['operator']);
    clock.advance(WATCH_MS);
    events.close();
    expect(sent.map((s) => [s.event, s.data.reason, s.data.allowsReducing])).toEqual([
      ['kill-switch', 'halted by an operator: lunch', true],
      ['kill-switch', 'ref_id a-3 already names a different record', false],
    ]);
    expect((sent[1]?.data.causes as { kind: string }[]).map((c) => c.kind)).toEqual(['operator', 'ref-id-conflict']);
  });
});
