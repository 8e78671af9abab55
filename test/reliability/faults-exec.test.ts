import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, MalformedResponseError, outcomeUnknown, TimeoutError } from '../../src/api/index.js';
import { D, type Intent } from '../../src/core/index.js';
import { startExecRig, venueOrders, type ExecRig } from '../support/reliability-rig.js';

let rig: ExecRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** A price 5 % under the mid: the buy rests (OPEN) and never fills during a case. */
function restingPrice(r: ExecRig): string {
  return new D(r.sandbox.sim.mid('BTCUSD')).times('0.95').toDecimalPlaces(2, D.ROUND_DOWN).toFixed();
}

/** The journal and the venue agree on one order for `refId`, and it is the venue's order. */
function expectOneJournaledOrder(r: ExecRig, refId: string): void {
  expect(venueOrders(r.sandbox, refId)).toBe(1);
  const order = r.sandbox.sim.orders().find((o) => o.refId === refId);
  const row = r.journal.get(refId);
  expect(row?.venueId).toBe(order?.id);
  expect(row?.state).toBe('open');
  expect(r.reports.filter((x) => x.refId === refId && x.kind === 'accepted')).toHaveLength(1);
}

/** What the client saw of `op`, one entry per attempt: the status, the typed error's code, or both. */
const ops = (r: ExecRig, op: string): string[] =>
  r.responses.filter((e) => e.operation === op).map((e) => [e.status, e.error].filter((x) => x !== undefined).join(' '));

describe('fault cases, each through the client, RestVenue, the order executor and the journal', () => {
  it('connect timeout: a typed TimeoutError of the connect phase, known not sent (so a write would be resent, not looked up), retried', async () => {
    // a TLS handshake that never completes on loopback: undici's connect phase times out
    const sockets: Socket[] = [];
    const hole: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((res) => hole.listen(0, '127.0.0.1', res));
    const port = (hole.address() as { port: number }).port;
    const seen: string[] = [];
    const api = createApiClient({
      apiUrl: `https://127.0.0.1:${port}/v2`,
      connectTimeoutMs: 150,
      maxRetries: 2,
      baseBackoffMs: 1,
      maxBackoffMs: 2,
      onResponse: (e) => void seen.push(`${e.operation} ${e.error ?? e.status}`),
    });
    const err = await api.listMarkets().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).phase).toBe('connect');
    expect(outcomeUnknown(err)).toBe(false);
    expect(seen).toEqual(['ListMarkets TIMEOUT', 'ListMarkets TIMEOUT', 'ListMarkets TIMEOUT']);
    await api.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((res) => hole.close(() => res()));
  });

  it('response lost after commit: the order is found by ref_id, journaled once, never placed twice', async () => {
    rig = await startExecRig({ faults: { rules: [{ mode: 'commit-drop', target: 'CreateOrder', count: 1 }] } });
    await rig.placeBuy('c-1', restingPrice(rig));
    expectOneJournaledOrder(rig, 'c-1');
    expect(ops(rig, 'CreateOrder')).toEqual(['TRANSPORT']);
  });

  it('5xx before commit: nothing was created, the lookup finds nothing, the same ref_id is sent again once', async () => {
    rig = await startExecRig({ faults: { rules: [{ mode: 'error5xx', target: 'CreateOrder', count: 1 }] } });
    await rig.placeBuy('c-2', restingPrice(rig));
    expectOneJournaledOrder(rig, 'c-2');
    expect(ops(rig, 'CreateOrder')).toEqual(['503 SERVER_ERROR', '200']);
    expect(ops(rig, 'ListOrders')).toEqual(['200']);
  });

  it('5xx after commit: the order exists although the answer was 503; the lookup finds it and it is not resent', async () => {
    rig = await startExecRig({ faults: { rules: [{ mode: 'commit-5xx', target: 'CreateOrder', count: 1 }] } });
    await rig.placeBuy('c-3', restingPrice(rig));
    expectOneJournaledOrder(rig, 'c-3');
    expect(ops(rig, 'CreateOrder')).toEqual(['503 SERVER_ERROR']);
    expect(ops(rig, 'ListOrders')).toEqual(['200']);
  });

  it('429 with Retry-After: the client waits the time asked for before the next attempt', async () => {
    rig = await startExecRig({ faults: { rules: [{ mode: 'error429', target: 'CreateOrder', count: 1 }], retryAfterSec: 3 } });
    await rig.placeBuy('c-4', restingPrice(rig));
    expectOneJournaledOrder(rig, 'c-4');
    const attempts = rig.requests.filter((e) => e.operation === 'CreateOrder');
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.atMs - attempts[0]!.atMs).toBeGreaterThanOrEqual(3_000);
  });

  it('connection reset mid-body: the committed order is found by ref_id', async () => {
    rig = await startExecRig({ faults: { rules: [{ mode: 'truncate', target: 'CreateOrder', count: 1 }] } });
    await rig.placeBuy('c-5', restingPrice(rig));
    expectOneJournaledOrder(rig, 'c-5');
  });

  it('truncated JSON in a complete 200: a MalformedResponseError, then the order is found by ref_id', async () => {
    rig = await startExecRig({ faults: { rules: [{ mode: 'malformed', target: 'CreateOrder', count: 1 }] } });
    await rig.placeBuy('c-6', restingPrice(rig));
    expectOneJournaledOrder(rig, 'c-6');
    expect(ops(rig, 'CreateOrder')).toEqual(['200 MALFORMED_RESPONSE']);
  });

  it('valid JSON of the wrong shape: a typed error, then the order is found by ref_id', async () => {
    rig = await startExecRig({ faults: { rules: [{ mode: 'wrong-shape', target: 'CreateOrder', count: 1 }] } });
    await rig.placeBuy('c-7', restingPrice(rig));
    expectOneJournaledOrder(rig, 'c-7');
    expect(ops(rig, 'CreateOrder')).toEqual(['200 MALFORMED_RESPONSE']);
  });

  it('malformed answers to reads are asked again (a read has no unknown outcome) and leave the journal as it was', async () => {
    rig = await startExecRig();
    await rig.placeBuy('c-8', restingPrice(rig));
    rig.sandbox.faults.add({ mode: 'malformed', target: 'GetOrder', count: 1 });
    rig.sandbox.faults.add({ mode: 'wrong-shape', target: 'GetOrder', count: 1 });
    const r = rig;
    const order = await rig.drive(r.api.getOrder(r.venue.profileId, r.journal.get('c-8')?.venueId ?? '', {}));
    expect(order).toMatchObject({ ref_id: 'c-8', status: 'OPEN' });
    expect(ops(rig, 'GetOrder')).toEqual(['200 MALFORMED_RESPONSE', '200 MALFORMED_RESPONSE', '200']);
    rig.sandbox.faults.add({ mode: 'malformed', target: 'GetOrder', count: 10 });
    const err = await rig.drive(r.api.getOrder(r.venue.profileId, r.journal.get('c-8')?.venueId ?? '', {}).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(MalformedResponseError);
    await rig.drive(r.orders.refresh(r.journal.get('c-8')!));
    expect(rig.journal.get('c-8')).toMatchObject({ state: 'open', status: 'OPEN' });
    await rig.drive(r.orders.refresh(r.journal.get('c-8')!));
    expect(rig.journal.get('c-8')).toMatchObject({ state: 'open', status: 'OPEN' });
  });

  it('a lookup that cannot answer leaves the order unresolved (with a report), and the next follow resolves it', async () => {
    rig = await startExecRig(
      {
        faults: {
          rules: [
            { mode: 'commit-drop', target: 'CreateOrder', count: 1 },
            { mode: 'wrong-shape', target: 'ListProfileOrders', count: 1 },
          ],
        },
      },
      { maxRetries: 0 },
    );
    await rig.placeBuy('c-9', restingPrice(rig));
    expect(rig.journal.get('c-9')?.state).toBe('unresolved');
    expect(rig.reports.some((x) => x.kind === 'unresolved' && x.refId === 'c-9')).toBe(true);
    const r = rig;
    await rig.drive(r.orders.resolve('c-9'));
    expectOneJournaledOrder(rig, 'c-9');
  });

  it('a quote expiring between decision and execution is refused by the venue: rejected, nothing executed, no funds moved', async () => {
    // the quote is picked with 30 s left; the request then waits 31 s (injected latency) before it runs
    rig = await startExecRig({ faults: { rules: [{ mode: 'latency', target: 'CreateQuoteExecution', latencyMs: 31_000 }] } });
    const before = rig.sandbox.sim.accounts.balances(rig.venue.profileId);
    const intent: Extract<Intent, { kind: 'execute-quote' }> = {
      kind: 'execute-quote',
      intentId: 'q-1',
      strategy: 'rig',
      market: 'BTCUSD',
      side: 'BUY',
      quoteAmount: '100.00',
    };
    const r = rig;
    r.journal.recordDecision({ kind: 'approve', intent, at: r.clock.now() });
    await rig.drive(r.quotes.execute(intent), 500);
    expect(rig.journal.get('q-1')).toMatchObject({ state: 'done', status: 'REJECTED' });
    const rejected = rig.reports.find((x) => x.refId === 'q-1');
    expect(rejected).toMatchObject({ kind: 'rejected', code: 'EXPIRED' });
    expect(rig.sandbox.sim.quoteExecutions().filter((x) => x.refId === 'q-1')).toHaveLength(0);
    expect(rig.sandbox.sim.accounts.balances(rig.venue.profileId)).toEqual(before);
  });

  it('409 for our own ref_id with matching fields: the existing order is ours, journaled once', async () => {
    rig = await startExecRig();
    const price = restingPrice(rig);
    const r = rig;
    await rig.drive(
      r.api.createOrder(r.venue.profileId, { ref_id: 'c-10', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', base_amount: '0.001', price }),
    );
    await rig.placeBuy('c-10', price);
    expectOneJournaledOrder(rig, 'c-10');
    expect(ops(rig, 'CreateOrder')).toEqual(['200', '409 CONFLICT']);
  });

  it('409 for our own ref_id with different fields: refused as REF_ID_REUSED, never taken for ours', async () => {
    rig = await startExecRig();
    const price = restingPrice(rig);
    const r = rig;
    await rig.drive(
      r.api.createOrder(r.venue.profileId, { ref_id: 'c-11', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', base_amount: '0.002', price }),
    );
    await rig.placeBuy('c-11', price);
    expect(venueOrders(rig.sandbox, 'c-11')).toBe(1);
    expect(rig.journal.get('c-11')).toMatchObject({ state: 'done', status: 'REJECTED', venueId: null });
    expect(rig.reports.filter((x) => x.refId === 'c-11')).toEqual([expect.objectContaining({ kind: 'rejected', code: 'REF_ID_REUSED' })]);
  });
});
