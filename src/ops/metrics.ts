/**
 * `/metrics` in the Prometheus text format (prom-client). One registry per server, never the global
 * one (no module state). Counters move with the kernel's decisions and reports as they happen;
 * gauges (equity, P&L, stream ages, the request budget, open orders) are read from the run when
 * Prometheus scrapes. Names carry units and counters end in `_total`; README and docs/operate.md list
 * them.
 */
import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Subscription } from 'rxjs';
import type { Decision, ExecReport } from '../core/index.js';
import type { HaltKind } from '../risk/index.js';
import type { OpsState } from './ops-state.js';
import type { OpsRun } from './run-port.js';

/** What the notifier reports to /metrics (see Notifier.stats). */
export interface NotifyStats {
  readonly sent: number;
  readonly failedAttempts: number;
  readonly gaveUp: number;
  readonly dropped: number;
  readonly queued: number;
  readonly capacity: number;
}

/** A notification queue's channel: the webhook's, or the Telegram bot's (each keeps its own bounded queue). */
export type NotifyChannel = 'webhook' | 'telegram';

export interface RunMetricsOptions {
  /** Each notification queue's running figures, by channel (the `channel` label of the notification metrics). */
  readonly notify?: Partial<Record<NotifyChannel, () => NotifyStats>>;
}

/** Journal operations that write (timed by `instrumentJournal`). */
export type JournalWrite = 'recordDecision' | 'markSent' | 'update' | 'recordFill' | 'setMeta' | 'checkpoint';

/** prom-client, loaded with the first metrics (a run serving no dashboard and no webhook never loads it). */
function promClient(): typeof PromClient {
  return createRequire(import.meta.url)('prom-client') as typeof PromClient;
}

export class RunMetrics {
  readonly registry = new (promClient().Registry)();
  private readonly subs: Subscription[] = [];
  private readonly intents: Counter<'strategy'>;
  private readonly decisions: Counter<'strategy' | 'decision' | 'code'>;
  private readonly orderEvents: Counter<'event'>;
  private readonly fills: Counter<'market' | 'side'>;
  private readonly fees: Counter<'asset'>;
  private readonly unresolved: Counter;
  private readonly rateLimited: Counter;
  private readonly journalWrites: Histogram<'operation'>;

  private attached = false;

  /** The registry and the counters the run feeds before it is built (journal writes, 429s). */
  constructor(options: { readonly processMetrics?: boolean } = {}) {
    const { collectDefaultMetrics, Counter, Histogram } = promClient();
    const registers = [this.registry];
    this.intents = new Counter({
      name: 'tradeloop_intents_total',
      help: 'Intents the strategies made, by strategy',
      labelNames: ['strategy'],
      registers,
    });
    this.decisions = new Counter({
      name: 'tradeloop_decisions_total',
      help: 'Risk decisions, by strategy, decision (approve|deny) and denial code (none when approved)',
      labelNames: ['strategy', 'decision', 'code'],
      registers,
    });
    this.orderEvents = new Counter({
      name: 'tradeloop_order_events_total',
      help: 'Execution reports, by kind (accepted, filled, cancelled, rejected, denied, failed, unresolved, quote-executed, transferred)',
      labelNames: ['event'],
      registers,
    });
    this.fills = new Counter({
      name: 'tradeloop_fills_total',
      help: 'Fills of our orders, by market and side',
      labelNames: ['market', 'side'],
      registers,
    });
    this.fees = new Counter({
      name: 'tradeloop_fees_total',
      help: 'Fees paid, in units of the commission asset',
      labelNames: ['asset'],
      registers,
    });
    this.unresolved = new Counter({
      name: 'tradeloop_unresolved_outcomes_total',
      help: 'Writes whose outcome could not be resolved (looked up by ref_id later)',
      registers,
    });
    this.rateLimited = new Counter({ name: 'tradeloop_http_rate_limited_total', help: 'HTTP 429 answers from the venue', registers });
    this.journalWrites = new Histogram({
      name: 'tradeloop_journal_write_duration_seconds',
      help: 'Time of each journal write, by operation',
      labelNames: ['operation'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1],
      registers,
    });
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
  }

  /** Follows the run: counters from its decisions and reports, gauges read from it when scraped. */
  attach(run: OpsRun, state: OpsState, options: RunMetricsOptions = {}): void {
    if (this.attached) throw new Error('RunMetrics.attach: already attached to a run');
    this.attached = true;
    this.gauges(run, state, [this.registry], options);
    this.subs.push(run.kernel.decisions$.subscribe((d) => this.onDecision(d)));
    this.subs.push(run.kernel.reports$.subscribe((r) => this.onReport(r)));
  }

  /** A 429 seen by the API client. */
  observeRateLimited(): void {
    this.rateLimited.inc();
  }

  observeJournalWrite(operation: JournalWrite, seconds: number): void {
    this.journalWrites.observe({ operation }, seconds);
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  close(): void {
    for (const s of this.subs.splice(0)) s.unsubscribe();
    this.registry.clear();
  }

  private onDecision(d: Decision): void {
    this.intents.inc({ strategy: d.intent.strategy });
    this.decisions.inc({ strategy: d.intent.strategy, decision: d.kind, code: d.kind === 'deny' ? d.reason.code : 'none' });
  }

  private onReport(r: ExecReport): void {
    this.orderEvents.inc({ event: r.kind });
    if (r.kind === 'filled') {
      this.fills.inc({ market: r.market, side: r.side });
      const fee = Number(r.commission);
      if (fee > 0) this.fees.inc({ asset: r.commissionAsset }, fee);
    }
    if (r.kind === 'unresolved') this.unresolved.inc();
  }

  /** Gauges read when scraped. */
  private gauges(run: OpsRun, state: OpsState, registers: Registry[], options: RunMetricsOptions): void {
    const { Gauge } = promClient();
    const g = <L extends string>(name: string, help: string, labelNames: readonly L[], collect: (this: Gauge<L>) => void): void => {
      new Gauge<L>({ name, help, labelNames, registers, collect });
    };
    g('tradeloop_equity', 'Equity marked at the mids, in the equity asset', ['asset'], function () {
      const v = run.view();
      this.reset();
      if (v.equity !== undefined) this.set({ asset: v.equityAsset ?? 'USD' }, Number(v.equity));
    });
    g('tradeloop_pnl', 'P&L since the run started (its start equity kept in the journal), in the equity asset', ['asset'], function () {
      const v = run.view();
      this.reset();
      if (v.pnl !== undefined) this.set({ asset: v.equityAsset ?? 'USD' }, Number(v.pnl));
    });
    g('tradeloop_strategy_pnl', 'P&L per strategy: realized plus unrealized at the mid, in the quote asset', ['strategy'], function () {
      this.reset();
      for (const [strategy, pnl] of Object.entries(state.strategyPnl())) this.set({ strategy }, Number(pnl));
    });
    g('tradeloop_orders', 'Our orders not yet closed, by journal state (pending, sent, open, unresolved)', ['state'], function () {
      this.reset();
      const counts: Record<string, number> = { pending: 0, sent: 0, open: 0, unresolved: 0 };
      for (const r of run.journal.active()) if (r.kind === 'place-order') counts[r.state] = (counts[r.state] ?? 0) + 1;
      for (const [s, n] of Object.entries(counts)) this.set({ state: s }, n);
    });
    g(
      'tradeloop_halted',
      '1 while new intents are halted, per active cause (operator, kill_switch for a loss or drawdown limit, orphans, ref_id_conflict)',
      ['cause'],
      function () {
        const h = state.haltState();
        this.reset();
        const active = new Set(h.causes.map((c) => haltLabel(c.kind)));
        for (const cause of ['operator', 'kill_switch', ...active]) this.set({ cause }, active.has(cause) ? 1 : 0);
      },
    );
    g(
      'tradeloop_journal_failed',
      '1 once the journal failed (a write refused, its file deleted or replaced): trading halted and the run stops',
      [],
      function () {
        this.set(run.view().journalFailure === undefined ? 0 : 1);
      },
    );
    g('tradeloop_stream_age_seconds', 'Time since each market-data or account stream last answered', ['stream'], function () {
      this.reset();
      const now = run.clock.now();
      for (const h of run.streams?.() ?? [])
        if (h.lastSuccessAt !== undefined) this.set({ stream: h.stream }, Math.max(0, now - h.lastSuccessAt) / 1000);
    });
    g('tradeloop_venue_unreachable', "1 while the venue's circuit breaker is open", [], function () {
      this.set(run.reachability?.().unreachableSince === undefined ? 0 : 1);
    });
    g('tradeloop_request_budget_queued', 'Requests waiting for the shared request budget', [], function () {
      this.set(run.budget?.queued() ?? 0);
    });
    g('tradeloop_request_budget_rate_per_second', 'Sustained requests per second the shared budget allows', [], function () {
      this.set(run.budget?.ratePerSec ?? 0);
    });
    this.monotonic('tradeloop_requests_total', 'Requests the shared budget granted or charged', () => run.budget?.spent() ?? 0);
    const channels = Object.entries(options.notify ?? {}).filter((c): c is [NotifyChannel, () => NotifyStats] => c[1] !== undefined);
    if (channels.length > 0) {
      const each = (read: (s: NotifyStats) => number): Array<[NotifyChannel, () => number]> =>
        channels.map(([c, stats]) => [c, () => read(stats())]);
      this.monotonic(
        'tradeloop_notifications_sent_total',
        'Notifications delivered (webhook: a 2xx answer; telegram: sent to every chat)',
        each((x) => x.sent),
      );
      this.monotonic(
        'tradeloop_notifications_failed_attempts_total',
        'Delivery attempts that failed (error, timeout or refusal)',
        each((x) => x.failedAttempts),
      );
      this.monotonic(
        'tradeloop_notifications_abandoned_total',
        'Notifications given up after their last retry',
        each((x) => x.gaveUp),
      );
      this.monotonic(
        'tradeloop_notifications_dropped_total',
        'Notifications dropped because the queue was at its cap',
        each((x) => x.dropped),
      );
      g('tradeloop_notifications_queued', 'Notifications waiting for delivery', ['channel'], function () {
        for (const [channel, stats] of channels) this.set({ channel }, stats().queued);
      });
      g('tradeloop_notifications_queue_capacity', "The notification queue's cap", ['channel'], function () {
        for (const [channel, stats] of channels) this.set({ channel }, stats().capacity);
      });
    }
  }

  /**
   * A counter that follows a running total kept elsewhere (it only ever grows): one total, or one per
   * `channel` label.
   */
  private monotonic(name: string, help: string, read: (() => number) | ReadonlyArray<readonly [NotifyChannel, () => number]>): void {
    const seen = new Map<string, number>();
    const { Counter } = promClient();
    new Counter({
      name,
      help,
      labelNames: typeof read === 'function' ? [] : ['channel'],
      registers: [this.registry],
      collect() {
        for (const [channel, total] of typeof read === 'function' ? ([['', read]] as const) : read) {
          const now = total();
          const before = seen.get(channel) ?? 0;
          // a channel's series exists from the first scrape, at 0 until something counts
          if (channel !== '') this.inc({ channel }, Math.max(0, now - before));
          else if (now > before) this.inc(now - before);
          seen.set(channel, Math.max(before, now));
        }
      },
    });
  }
}

/** A halt cause's label on `tradeloop_halted`: a loss or drawdown trip is `kill_switch`, the others their kind. */
function haltLabel(kind: HaltKind): string {
  return kind === 'daily-loss' || kind === 'drawdown' ? 'kill_switch' : kind.replaceAll('-', '_');
}
