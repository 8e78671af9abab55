/**
 * Notification delivery that never blocks trading: `notify` only queues (synchronously, O(1) in the
 * common case) and returns; one delivery loop sends the queue in order, each attempt bounded by a
 * timeout, failed ones retried with exponential backoff on the injected clock. The queue has a cap:
 * past it the oldest waiting notification is dropped, and drops, failures and give-ups are counted
 * for /metrics. A webhook's body is signed with HMAC-SHA256 over `<timestamp>.<body>` so the receiver
 * can check it came from this bot and is fresh; a chat bot passes its own `deliver` instead.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { Clock } from '../../clock/index.js';
import type { NOTIFY_EVENTS } from '../../config/index.js';
import type { Logger } from '../../log/index.js';
import type { NotifyStats } from '../metrics.js';

/** An event a webhook can be sent for (`notify.events`). */
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

export { NOTIFY_URL_VARIABLE } from '../wanted.js';
export const NOTIFY_SECRET_VARIABLE = 'TRADELOOP_NOTIFY_SECRET';
export const SIGNATURE_HEADER = 'x-tradeloop-signature';
export const TIMESTAMP_HEADER = 'x-tradeloop-timestamp';

/** One POST: the transport answers the HTTP status, or throws (refused, reset, aborted). */
export type WebhookTransport = (request: {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly signal: AbortSignal;
}) => Promise<number>;

export interface Notification {
  readonly id: string;
  readonly event: NotifyEvent;
  readonly at: number;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * Delivers one notification somewhere other than a webhook (a chat): the HTTP status of the answer
 * (2xx: delivered), or throws. `attempt` counts from 1; `signal` aborts at the timeout or on close.
 */
export type Deliver = (n: Notification, attempt: number, signal: AbortSignal) => Promise<number>;

/** The queue's settings, whatever it delivers to. */
export interface NotifyQueueOptions {
  readonly clock: Pick<Clock, 'now' | 'setTimeout' | 'sleep'>;
  /** Which events are sent; others are ignored at `notify`. */
  readonly events: readonly NotifyEvent[];
  readonly capacity: number;
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  readonly log?: Logger;
  /** Delivery ids (default: random UUIDs); tests pass a counter. */
  readonly newId?: () => string;
}

/** A signed webhook POST per notification, or another channel's `deliver` (named `label` in logs). */
export type NotifierOptions = NotifyQueueOptions &
  (
    | {
        readonly url: string;
        readonly secret: string;
        /** Names the bot in each body (the journal's ref_id prefix). */
        readonly source: string;
        readonly transport?: WebhookTransport;
      }
    | { readonly deliver: Deliver; readonly label: string }
  );

const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;

interface Queued {
  readonly n: Notification;
  attempts: number;
}

/** `sha256=<hex>` of HMAC-SHA256(secret, `${timestamp}.${body}`): what the receiver recomputes. */
export function signatureOf(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export class Notifier {
  private readonly queue: Queued[] = [];
  private readonly wanted: ReadonlySet<NotifyEvent>;
  private readonly deliver: Deliver;
  private readonly label: string;
  private running = false;
  private closed = false;
  private idle: (() => void)[] = [];
  /** Aborted by `close`: ends a backoff wait and an attempt in flight, so nothing outlives the run. */
  private readonly closing = new AbortController();
  private readonly counts = { sent: 0, failedAttempts: 0, gaveUp: 0, dropped: 0 };

  constructor(private readonly o: NotifierOptions) {
    this.wanted = new Set(o.events);
    if ('deliver' in o) {
      this.deliver = o.deliver;
      this.label = o.label;
    } else {
      this.deliver = webhookDeliver(o.url, o.secret, o.source, o.clock, o.transport ?? fetchTransport);
      this.label = 'webhook';
    }
  }

  /** Queues a notification for `event` when it is one of the configured events. Never waits. */
  notify(event: NotifyEvent, data: Record<string, unknown>): void {
    if (this.closed || !this.wanted.has(event)) return;
    if (this.queue.length >= this.o.capacity) {
      // the head may be in flight: drop the oldest one still waiting (the head when it is alone)
      this.queue.splice(this.running && this.queue.length > 1 ? 1 : 0, 1);
      this.counts.dropped++;
    }
    this.queue.push({ n: { id: this.o.newId?.() ?? randomUUID(), event, at: this.o.clock.now(), data }, attempts: 0 });
    if (!this.running) void this.loop();
  }

  stats(): NotifyStats {
    return { ...this.counts, queued: this.queue.length, capacity: this.o.capacity };
  }

  /** Resolves when the queue is empty, or after `timeoutMs` on the clock (run stop: best effort). */
  async flush(timeoutMs: number): Promise<void> {
    if (this.queue.length === 0) return;
    const drained = new Promise<void>((resolve) => this.idle.push(resolve));
    const ac = new AbortController();
    await Promise.race([drained, this.o.clock.sleep(timeoutMs, ac.signal).catch(() => undefined)]);
    ac.abort();
  }

  /** Stops delivering; what is still queued is dropped (counted). */
  close(): void {
    this.closed = true;
    this.closing.abort();
    this.counts.dropped += this.queue.length;
    this.queue.length = 0;
    this.wakeIdle();
  }

  private async loop(): Promise<void> {
    this.running = true;
    try {
      for (let head = this.queue[0]; head !== undefined && !this.closed; head = this.queue[0]) {
        head.attempts++;
        const ok = await this.attempt(head);
        if (this.closed) break;
        if (ok) {
          this.counts.sent++;
          this.remove(head);
          continue;
        }
        this.counts.failedAttempts++;
        if (head.attempts >= this.o.maxAttempts) {
          this.counts.gaveUp++;
          this.remove(head);
          this.o.log?.warn(`${this.label} ${head.n.event} ${head.n.id} given up after ${head.attempts} attempt(s)`);
          continue;
        }
        await this.o.clock
          .sleep(Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (head.attempts - 1)), this.closing.signal)
          .catch(() => undefined);
      }
    } finally {
      this.running = false;
      if (this.queue.length === 0) this.wakeIdle();
    }
  }

  private remove(q: Queued): void {
    const i = this.queue.indexOf(q);
    if (i >= 0) this.queue.splice(i, 1);
  }

  private wakeIdle(): void {
    for (const w of this.idle.splice(0)) w();
  }

  /** One delivery, bounded by the timeout; true on a 2xx. Failures are logged without the URL. */
  private async attempt(q: Queued): Promise<boolean> {
    const ac = new AbortController();
    const timer = this.o.clock.setTimeout(() => ac.abort(new Error(`no answer in ${this.o.timeoutMs} ms`)), this.o.timeoutMs);
    const onClose = (): void => ac.abort(new Error('notifier closed'));
    this.closing.signal.addEventListener('abort', onClose, { once: true });
    try {
      const status = await this.deliver(q.n, q.attempts, ac.signal);
      if (status >= 200 && status < 300) return true;
      this.o.log?.warn(`${this.label} ${q.n.event} attempt ${q.attempts} answered HTTP ${status}`);
      return false;
    } catch (e) {
      const why = ac.signal.aborted ? `no answer in ${this.o.timeoutMs} ms` : describe(e);
      this.o.log?.warn(`${this.label} ${q.n.event} attempt ${q.attempts} failed: ${why}`);
      return false;
    } finally {
      timer.cancel();
      this.closing.signal.removeEventListener('abort', onClose);
    }
  }
}

/** The signed webhook POST of a notification: HMAC-SHA256 over `<timestamp>.<body>`. */
function webhookDeliver(url: string, secret: string, source: string, clock: Pick<Clock, 'now'>, transport: WebhookTransport): Deliver {
  return (n, attempt, signal) => {
    const body = JSON.stringify({ id: n.id, event: n.event, at: new Date(n.at).toISOString(), source, attempt, data: n.data });
    const timestamp = String(Math.floor(clock.now() / 1000));
    return transport({
      url,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'tradeloop-webhook',
        'x-tradeloop-event': n.event,
        'x-tradeloop-delivery': n.id,
        [TIMESTAMP_HEADER]: timestamp,
        [SIGNATURE_HEADER]: signatureOf(secret, timestamp, body),
      },
      body,
      signal,
    });
  };
}

/** The error's code or name, never its message (which could carry the receiver's URL). */
function describe(e: unknown): string {
  const cause = (e as { cause?: { code?: string } } | undefined)?.cause;
  return cause?.code ?? (e instanceof Error ? e.name : 'error');
}

/** POST with the platform's fetch; the answer's body is read and discarded. */
const fetchTransport: WebhookTransport = async ({ url, headers, body, signal }) => {
  const res = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'error' });
  await res.arrayBuffer().catch(() => undefined);
  return res.status;
};
