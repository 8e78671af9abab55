/**
 * The progress line of `tradeloop optimize` on stderr: a bar, trials done of all, and the best score so
 * far with its parameters. Shown only on a terminal (never with --json or when stderr is piped or a
 * file: a line rewritten in place would only litter a log), and redrawn at most every
 * {@link PROGRESS_EVERY_MS} however fast trials finish.
 */
import type { Writable } from 'node:stream';
import type { GridValue } from './grid.js';
import type { OptimizeMetric } from './optimize.js';

/** The fewest milliseconds between two redraws. */
export const PROGRESS_EVERY_MS = 250;

const WIDTH = 20;

/** The best trial so far: its score on the ranking metric and its parameters. */
export interface BestSoFar {
  readonly score: number;
  readonly params: Readonly<Record<string, GridValue>>;
}

/** `optimize [██████░░░░░░░░░░░░░░] 30% 30/100 · best return 12.34 (fast=5, slow=40)`. */
export function progressText(label: string, done: number, total: number, metric: OptimizeMetric, best: BestSoFar | undefined): string {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * WIDTH);
  const head = `${label} [${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}] ${Math.floor(share * 100)}% ${done}/${total}`;
  if (best === undefined) return `${head} · no result yet`;
  const params = Object.entries(best.params)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
  return `${head} · best ${metric} ${Number(best.score.toPrecision(6))}${params ? ` (${params})` : ''}`;
}

/** The better of two results on `metric` (lower is better for max_drawdown). */
export function better(metric: OptimizeMetric, a: BestSoFar | undefined, b: BestSoFar | undefined): BestSoFar | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return (metric === 'max_drawdown' ? b.score < a.score : b.score > a.score) ? b : a;
}

export interface ProgressOptions {
  readonly label: string;
  readonly metric: OptimizeMetric;
  /** Milliseconds now (the caller's clock). */
  readonly now: () => number;
  /** False: nothing is ever written (not a terminal, or --json). */
  readonly enabled: boolean;
}

/** The line, redrawn in place; a row handed to {@link offer} counts toward the best so far. */
export class OptimizeProgress {
  private best: BestSoFar | undefined;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private drawn = false;

  constructor(
    private readonly stream: Writable,
    private readonly o: ProgressOptions,
  ) {}

  /** Whether stderr is a terminal the line may be drawn on (and the output is not --json). */
  static shownOn(stream: Writable, json: boolean): boolean {
    return !json && (stream as Partial<NodeJS.WriteStream>).isTTY === true;
  }

  /** A finished trial's score and parameters (a failed or unscored one is ignored). */
  offer(score: number | null | undefined, params: Readonly<Record<string, GridValue>>): void {
    if (typeof score === 'number' && Number.isFinite(score)) this.best = better(this.o.metric, this.best, { score, params });
  }

  update(done: number, total: number): void {
    if (!this.o.enabled) return;
    const t = this.o.now();
    if (t - this.lastDraw < PROGRESS_EVERY_MS && done < total) return;
    this.lastDraw = t;
    this.drawn = true;
    this.stream.write(`\r${progressText(this.o.label, done, total, this.o.metric, this.best)}\x1b[K`);
  }

  /** Clears the line (the results follow on a clean terminal). */
  stop(): void {
    if (this.drawn) this.stream.write('\r\x1b[K');
    this.drawn = false;
  }
}
