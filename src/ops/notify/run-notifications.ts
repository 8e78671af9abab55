import type { Subscription } from 'rxjs';
import type { TimerHandle } from '../../clock/index.js';
import type { ExecReport } from '../../core/index.js';
import type { HaltKind } from '../../risk/index.js';
import type { OpsRun } from '../run-port.js';
import type { NotifyEvent } from './notifier.js';

/** Where notifications go (the Notifier, or a test's list). */
export interface NotifySink {
  notify(event: NotifyEvent, data: Record<string, unknown>): void;
}

/** How often the run's states (halt, strategies, venue reachability) are looked at, on the run's clock. */
export const WATCH_MS = 1_000;

/**
 * Turns what happens in a run into notifications: fills and unresolved outcomes as the kernel
 * reports them; each new halt cause (a kill-switch trip, a ref_id conflict, an operator's halt), a
 * strategy stopping and the venue becoming unreachable (and reachable again) as the run's state
 * changes, looked at every `WATCH_MS` on the run's clock.
 * Each change is sent once. Run start and stop are sent by the caller (`runStarted`, `runStopped`).
 */
export class RunNotifications {
  private readonly subs: Subscription[] = [];
  private timer: TimerHandle | undefined;
  /** The halt causes active at the last look, by kind. */
  private halted: ReadonlySet<HaltKind>;
  private journalFailure: string | undefined;
  private readonly stopped = new Set<string>();
  private unreachableSince: number | undefined;
  private closed = false;

  constructor(
    private readonly run: OpsRun,
    private readonly sink: NotifySink,
  ) {
    this.halted = new Set(run.kernel.gate.killSwitch.causes.map((c) => c.kind));
    for (const s of run.strategies) if (s.stopped !== undefined) this.stopped.add(s.name);
    this.subs.push(run.kernel.reports$.subscribe((r) => this.onReport(r)));
    this.watch();
  }

  runStarted(data: Record<string, unknown>): void {
    this.sink.notify('run-start', data);
  }

  runStopped(data: Record<string, unknown>): void {
    this.check();
    this.sink.notify('run-stop', data);
  }

  close(): void {
    this.closed = true;
    this.timer?.cancel();
    for (const s of this.subs.splice(0)) s.unsubscribe();
  }

  private onReport(r: ExecReport): void {
    if (r.kind === 'filled')
      this.sink.notify('fill', {
        refId: r.refId,
        orderId: r.orderId,
        market: r.market,
        side: r.side,
        amount: r.amount,
        price: r.price,
        commission: r.commission,
        commissionAsset: r.commissionAsset,
        at: r.at,
      });
    else if (r.kind === 'quote-executed')
      this.sink.notify('fill', {
        refId: r.refId,
        executionId: r.executionId,
        market: r.market,
        side: r.side,
        amount: r.baseAmount,
        quoteAmount: r.quoteAmount,
        price: r.price,
        at: r.at,
        quote: true,
      });
    else if (r.kind === 'unresolved') this.sink.notify('unresolved', { refId: r.refId, message: r.message, at: r.at });
  }

  private watch(): void {
    if (this.closed) return;
    this.check();
    this.timer = this.run.clock.setTimeout(() => this.watch(), WATCH_MS);
  }

  /** Sends what changed since the last look. */
  check(): void {
    const ks = this.run.kernel.gate.killSwitch;
    const now = this.run.clock.now();
    // each cause once as it comes (a resume that lifts one cause while others hold sends nothing)
    const fresh = ks.causes.filter((c) => !this.halted.has(c.kind));
    if (fresh.length > 0)
      this.sink.notify('kill-switch', {
        reason: fresh.map((c) => c.reason).join('; '),
        allowsReducing: ks.allowsReducing,
        causes: ks.causes,
        at: now,
      });
    this.halted = new Set(ks.causes.map((c) => c.kind));
    const journal = this.run.view().journalFailure;
    if (journal !== undefined && this.journalFailure === undefined)
      this.sink.notify('journal-failed', { reason: journal, exitCode: 5, at: now });
    this.journalFailure = journal;
    for (const s of this.run.strategies) {
      if (s.stopped === undefined || this.stopped.has(s.name)) continue;
      this.stopped.add(s.name);
      this.sink.notify('strategy-stopped', { strategy: s.name, reason: s.stopped, at: now });
    }
    const since = this.run.reachability ? this.run.reachability().unreachableSince : this.run.view().venueUnreachableSince;
    if (since !== undefined && this.unreachableSince === undefined)
      this.sink.notify('venue-unreachable', { state: 'unreachable', since, lastError: this.run.reachability?.().lastError, at: now });
    if (since === undefined && this.unreachableSince !== undefined)
      this.sink.notify('venue-unreachable', { state: 'reachable again', since: this.unreachableSince, at: now });
    this.unreachableSince = since;
  }
}
