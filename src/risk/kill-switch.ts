import { D, type Dec } from '../core/index.js';
import type { RiskLimits } from './limits.js';

const DAY_MS = 86_400_000;

/**
 * Why trading is halted. Each kind is its own cause, held apart from the others with its own reason,
 * and lifted only in its own way (see `HALT_KINDS`): an operator's resume lifts the operator's halt and
 * nothing else.
 */
export type HaltKind = 'operator' | 'daily-loss' | 'drawdown' | 'orphans' | 'ref-id-conflict' | 'journal';

/**
 * How a cause is lifted: `resume` (an operator's plain resume), `kill-switch` (a resume that asks for
 * it explicitly: `kill_switch: true`, `--kill-switch`, the dashboard's Resume kill switch), or
 * `restart` (no resume lifts it: the run must be restarted after the cause is fixed).
 */
export type HaltLift = 'resume' | 'kill-switch' | 'restart';

/** Each kind's rules: how it is lifted, and whether orders that only reduce a position still pass. */
export const HALT_KINDS: Readonly<Record<HaltKind, { readonly lift: HaltLift; readonly allowsReducing: boolean }>> = {
  operator: { lift: 'resume', allowsReducing: true },
  'daily-loss': { lift: 'kill-switch', allowsReducing: true },
  drawdown: { lift: 'kill-switch', allowsReducing: true },
  orphans: { lift: 'kill-switch', allowsReducing: true },
  // the run can no longer trust its own ids: nothing new is written, and only a restart on a new
  // journal prefix (or journal) lifts it
  'ref-id-conflict': { lift: 'restart', allowsReducing: false },
  // a journal write refused, or its file deleted or replaced: no intent can be journaled before its
  // request, so nothing new passes, and the run stops; a restart once the cause is fixed lifts it
  journal: { lift: 'restart', allowsReducing: false },
};

/** One active cause of a halt. */
export interface HaltCause {
  readonly kind: HaltKind;
  readonly reason: string;
  readonly allowsReducing: boolean;
  readonly lift: HaltLift;
  /** When it was tripped (epoch ms), when known. */
  readonly since?: number;
}

/**
 * The marks the loss rules measure from: the equity the UTC day opened with and the highest equity
 * seen (the drawdown's peak). They survive halts and resumes; a live run keeps them in its journal so
 * a restart on the same UTC day keeps them too.
 */
export interface KillSwitchMarks {
  /** The UTC day they belong to, `YYYY-MM-DD`. */
  readonly day: string;
  readonly dayOpenEquity: string;
  readonly peak: string;
}

/**
 * The halt state of a run: every active cause (an operator's halt, a daily-loss or drawdown trip, a
 * ref_id conflict, orphans at start…), each with its own reason, and the daily-loss and drawdown
 * rules fed with marked equity. A cause stays until lifted in its own way; the engine cancels open
 * orders and halts new intents while any holds.
 */
export class KillSwitch {
  private dayStart = Number.NaN;
  private dayOpenEquity: Dec | undefined;
  private peak: Dec | undefined;
  private lastEquity: Dec | undefined;
  private lastAt: number | undefined;
  private readonly active = new Map<HaltKind, HaltCause>();

  constructor(private readonly limits: Pick<RiskLimits, 'daily_loss_limit' | 'max_drawdown_pct'>) {}

  /** Every active cause, in the order they were tripped. */
  get causes(): readonly HaltCause[] {
    return [...this.active.values()];
  }

  /** The reasons of every active cause (`; ` between them), or undefined while trading runs. */
  get tripped(): string | undefined {
    if (this.active.size === 0) return undefined;
    return this.causes.map((c) => c.reason).join('; ');
  }

  /**
   * Whether orders that only reduce a position still pass while halted: yes after a loss or a halt
   * by hand (a trip must never trap a position); no while any cause says the run can no longer trust
   * its own ids.
   */
  get allowsReducing(): boolean {
    for (const c of this.active.values()) if (!c.allowsReducing) return false;
    return true;
  }

  has(kind: HaltKind): boolean {
    return this.active.has(kind);
  }

  /**
   * Records equity at `at`; returns the reason when this observation trips a loss rule. The marks are
   * followed while other causes hold (an operator's halt does not pause them).
   */
  observe(equity: Dec, at: number): string | undefined {
    // while a loss rule holds the marks wait: lifting it sets them afresh (see `lift`)
    if (this.active.has('daily-loss') || this.active.has('drawdown')) return undefined;
    this.lastEquity = equity;
    this.lastAt = at;
    const day = Math.floor(at / DAY_MS) * DAY_MS;
    if (day !== this.dayStart || this.dayOpenEquity === undefined) {
      this.dayStart = day;
      this.dayOpenEquity = equity;
    }
    if (this.peak === undefined || equity.gt(this.peak)) this.peak = equity;
    const loss = this.dayOpenEquity.minus(equity);
    if (this.limits.daily_loss_limit !== undefined && loss.gt(this.limits.daily_loss_limit)) {
      return this.add('daily-loss', `daily loss ${loss.toFixed(2)} exceeds ${this.limits.daily_loss_limit}`, at);
    }
    if (this.limits.max_drawdown_pct !== undefined && this.peak.gt(0)) {
      const dd = this.peak.minus(equity).div(this.peak).times(100);
      if (dd.gt(new D(this.limits.max_drawdown_pct))) {
        return this.add('drawdown', `drawdown ${dd.toFixed(2)}% exceeds ${this.limits.max_drawdown_pct}%`, at);
      }
    }
    return undefined;
  }

  /**
   * Trips a cause by hand (an operator by default; a conflicting ref_id, orphans at start). With
   * `allowReducing: false` nothing new passes at all, not even an order that reduces a position
   * (cancels always do). Returns true when the cause was not active yet (a cause already active keeps
   * its first reason).
   */
  trip(reason: string, options: { readonly kind?: HaltKind; readonly allowReducing?: boolean; readonly at?: number } = {}): boolean {
    const kind = options.kind ?? 'operator';
    if (this.active.has(kind)) return false;
    this.add(kind, reason, options.at, options.allowReducing);
    return true;
  }

  /**
   * Lifts the causes of `kinds` that are active; returns them. Lifting a loss rule sets its marks
   * afresh from the equity last seen (an operator who lifts a loss trip takes the loss so far; the
   * rule counts again from there); every other lift leaves the marks as they are.
   */
  lift(kinds: Iterable<HaltKind>): HaltCause[] {
    const lifted: HaltCause[] = [];
    for (const kind of kinds) {
      const c = this.active.get(kind);
      if (!c) continue;
      this.active.delete(kind);
      lifted.push(c);
    }
    if (lifted.some((c) => c.kind === 'daily-loss' || c.kind === 'drawdown') && this.lastEquity !== undefined) {
      this.dayOpenEquity = this.lastEquity;
      this.peak = this.lastEquity;
    }
    return lifted;
  }

  /** The day's opening equity and the peak, once equity has been seen. */
  marks(): KillSwitchMarks | undefined {
    if (this.dayOpenEquity === undefined || this.peak === undefined) return undefined;
    return { day: utcDay(this.dayStart), dayOpenEquity: this.dayOpenEquity.toFixed(), peak: this.peak.toFixed() };
  }

  /** The equity the rules last measured, and when (undefined before the first mark). */
  get lastMarked(): { readonly equity: string; readonly at: number } | undefined {
    return this.lastEquity === undefined || this.lastAt === undefined ? undefined : { equity: this.lastEquity.toFixed(), at: this.lastAt };
  }

  /**
   * Takes marks kept from before (a restart): used only when they belong to the UTC day of `at` and
   * no equity has been seen yet; returns whether they were taken.
   */
  restore(marks: KillSwitchMarks, at: number): boolean {
    const day = Math.floor(at / DAY_MS) * DAY_MS;
    if (this.dayOpenEquity !== undefined || marks.day !== utcDay(day)) return false;
    const open = new D(marks.dayOpenEquity);
    const peak = new D(marks.peak);
    if (!open.isFinite() || !peak.isFinite()) return false;
    this.dayStart = day;
    this.dayOpenEquity = open;
    this.peak = peak;
    return true;
  }

  private add(kind: HaltKind, reason: string, at: number | undefined, allowReducing?: boolean): string {
    const rules = HALT_KINDS[kind];
    this.active.set(kind, {
      kind,
      reason,
      allowsReducing: allowReducing ?? rules.allowsReducing,
      lift: rules.lift,
      ...(at !== undefined && { since: at }),
    });
    return reason;
  }
}

function utcDay(dayStartMs: number): string {
  return new Date(dayStartMs).toISOString().slice(0, 10);
}
