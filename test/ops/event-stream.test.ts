/**
 * The dashboard's event stream over the wire: a client gets the history and a snapshot on connect,
 * then each report as the kernel emits it; a client that stops reading is dropped once 1 MB waits for
 * it, and emitting never waits on it.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import { OpsState, RunMetrics, startOpsServer, type OpsServer } from '../../src/ops/index.js';
import { stubRun } from './stub-run.js';

const TOKEN = 'stream-token-0123456789';
let server: OpsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(): Promise<{ stub: ReturnType<typeof stubRun>; server: OpsServer }> {
  const clock = new TestClock(1_700_000_000_000);
  const stub = stubRun(clock);
  const state = new OpsState(stub.run);
  const metrics = new RunMetrics({ processMetrics: false });
  metrics.attach(stub.run, state);
  server = await startOpsServer({ host: '127.0.0.1', port: 0, token: TOKEN, run: stub.run, state, metrics, timers: clock });
  return { stub, server };
}

describe('the event stream', () => {
  it('sends history and a snapshot on connect, then reports as they happen', async () => {
    const { stub, server: s } = await setup();
    const res = await fetch(`${s.url}api/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const readUntil = async (needle: string): Promise<void> => {
      while (!text.includes(needle)) {
        const chunk = await reader.read();
        // a stream that ended would otherwise spin here for ever (no timer can fire between reads)
        if (chunk.done) throw new Error(`the event stream ended before "${needle}"; it sent: ${text.slice(-500)}`);
        text += new TextDecoder().decode(chunk.value);
      }
    };
    await readUntil('event: snapshot');
    expect(text).toMatch(/^event: history\ndata: \{"points":\[/);
    stub.reports.next({ kind: 'cancelled', refId: 'r9', orderId: 'o9', at: 5 });
    await readUntil('"refId":"r9"');
    expect(text).toContain('event: report\ndata: {"kind":"cancelled","refId":"r9","orderId":"o9","at":5}');
    await reader.cancel();
  });

  it('drops a client that stops reading once 1 MB waits for it, without holding up the reports', async () => {
    const { stub, server: s } = await setup();
    const port = new URL(s.url).port;
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`);
    await new Promise<void>((r) => socket.once('data', () => r()));
    socket.pause(); // reads nothing more
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    const message = 'x'.repeat(10_000);
    let emitted = 0;
    for (let i = 0; i < 2_000; i++) {
      stub.reports.next({ kind: 'failed', refId: `r${i}`, code: 'X', message, at: i });
      emitted++;
      if (i % 100 === 0) await new Promise((r) => setImmediate(r)); // let the socket fill up
    }
    expect(emitted).toBe(2_000);
    socket.resume();
    await closed; // the server gave up on it
  });
});
