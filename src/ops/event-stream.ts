import type { ServerResponse } from 'node:http';
import type { Subscription } from 'rxjs';
import type { TimerHandle } from '../clock/index.js';
import type { OpsState } from './ops-state.js';
import type { OpsRun } from './run-port.js';
import { decisionView, reportView } from './views.js';

/** Bytes a slow client may have waiting before it is dropped (it reconnects and gets a fresh snapshot). */
const MAX_BUFFERED_BYTES = 1 << 20;
const MAX_CLIENTS = 16;

/**
 * Server-sent events for the dashboard: on connect the equity history and a snapshot of everything,
 * then each decision and execution report as the kernel emits it, and a fresh snapshot plus an
 * equity sample every `periodMs`. Each client's unsent output is capped: a client that stops reading
 * is dropped rather than buffered without end, and trading never waits on it (writes never block).
 */
export class EventStream {
  private readonly clients = new Set<ServerResponse>();
  private readonly subs: Subscription[] = [];
  private timer: TimerHandle | undefined;
  private closed = false;

  constructor(
    private readonly run: OpsRun,
    private readonly state: OpsState,
    private readonly timers: { setTimeout(fn: () => void, ms: number): TimerHandle },
    private readonly periodMs = 1_000,
  ) {
    this.subs.push(run.kernel.decisions$.subscribe((d) => this.broadcast('decision', decisionView(d))));
    this.subs.push(run.kernel.reports$.subscribe((r) => this.broadcast('report', reportView(r))));
    this.tick();
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** Takes over `res` as an event stream. */
  open(res: ServerResponse): void {
    if (this.clients.size >= MAX_CLIENTS) {
      res
        .writeHead(503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: `at most ${MAX_CLIENTS} dashboards may follow a run at once` }));
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
    this.send(res, 'history', { points: this.state.history.list(), fills: this.state.fills.list() });
    this.send(res, 'snapshot', this.state.snapshot());
  }

  close(): void {
    this.closed = true;
    this.timer?.cancel();
    for (const s of this.subs.splice(0)) s.unsubscribe();
    for (const c of this.clients) c.end();
    this.clients.clear();
  }

  private tick(): void {
    if (this.closed) return;
    try {
      const point = this.state.sample();
      if (this.clients.size > 0) {
        this.broadcast('equity', point);
        this.broadcast('snapshot', this.state.snapshot());
      }
    } catch (e) {
      // a view that cannot be built this second (a store mid-change) is skipped, never fatal
      this.broadcast('problem', { error: e instanceof Error ? e.message : String(e) });
    }
    this.timer = this.timers.setTimeout(() => this.tick(), this.periodMs);
  }

  private broadcast(event: string, data: unknown): void {
    if (this.clients.size === 0) return;
    const frame = frameOf(event, data);
    for (const c of this.clients) this.write(c, frame);
  }

  private send(res: ServerResponse, event: string, data: unknown): void {
    this.write(res, frameOf(event, data));
  }

  private write(res: ServerResponse, frame: string): void {
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      this.clients.delete(res);
      res.destroy();
      return;
    }
    res.write(frame);
  }
}

function frameOf(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
