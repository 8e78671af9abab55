import { InputError } from '../core/index.js';
import { requireInteger } from './validate.js';

/** The incremental API every technicalindicators class offers: one input in, one output (or undefined) out. */
export interface NextValueSource<TIn, TOut> {
  nextValue(input: TIn): TOut | undefined;
}

/**
 * Bounds the memory of an upstream indicator that leaks (technicalindicators' internal linked
 * list keeps every input): every `everyUpdates` updates the upstream object is rebuilt and fed
 * the last `keepInputs` inputs again, so the leaked history is dropped. Exact for indicators with
 * a finite window of at most `keepInputs`; for exponentially smoothed ones the replayed state
 * converges (choose keepInputs ≥ 20 × period); wrong for cumulative ones (OBV, ADL): leave it off.
 */
export interface RebuildOptions {
  readonly everyUpdates: number;
  readonly keepInputs: number;
}

/** Options of {@link TiAdapter}; `select` is required when the upstream output is not a number. */
export type TiAdapterOptions<TIn, TOut> = {
  /** Label used in errors, e.g. "CCI(20)". */
  readonly name: string;
  /** The look-back the upstream indicator was built with. */
  readonly period: number;
  /** Inputs before the first output (default: period). */
  readonly warmUp?: number;
  /** Builds a fresh upstream instance, e.g. `() => new CCI({ period: 20, high: [], low: [], close: [] })`. */
  readonly create: () => NextValueSource<TIn, TOut>;
  readonly rebuild?: RebuildOptions;
} & ([TOut] extends [number] ? { readonly select?: (output: TOut) => number } : { readonly select: (output: TOut) => number });

/**
 * Puts any other technicalindicators 3.1.0 indicator behind the framework's indicator shape
 * (`update`, `value`, `ready`, `reset`, `period`, `warmUp`), so strategies can use the rest of
 * its catalogue without learning a second API. The adapter itself adds no per-update allocation
 * (the upstream does allocate); `output` keeps the upstream's raw last output (for multi-field
 * results such as Stochastic's `{k, d}`).
 */
export class TiAdapter<TIn, TOut = number> {
  readonly name: string;
  readonly period: number;
  readonly warmUp: number;
  private readonly create: () => NextValueSource<TIn, TOut>;
  private readonly select: ((output: TOut) => number) | undefined;
  private readonly every: number;
  private readonly kept: Array<TIn | undefined>;
  private upstream: NextValueSource<TIn, TOut>;
  private head = 0;
  private stored = 0;
  private sinceRebuild = 0;
  private last = NaN;
  private raw: TOut | undefined;

  constructor(options: TiAdapterOptions<TIn, TOut>) {
    this.name = options.name;
    this.period = requireInteger('period', options.period, 1);
    this.warmUp = requireInteger('warmUp', options.warmUp ?? options.period, 1);
    this.create = options.create;
    this.select = options.select;
    const keep = options.rebuild ? requireInteger('rebuild.keepInputs', options.rebuild.keepInputs, this.warmUp) : 0;
    this.every = options.rebuild ? requireInteger('rebuild.everyUpdates', options.rebuild.everyUpdates, keep) : 0;
    this.kept = new Array<TIn | undefined>(keep).fill(undefined);
    this.upstream = this.create();
  }

  get ready(): boolean {
    return this.raw !== undefined;
  }

  get value(): number | undefined {
    return this.raw === undefined ? undefined : this.last;
  }

  /** The upstream's last raw output (undefined while warming up). */
  get output(): TOut | undefined {
    return this.raw;
  }

  update(input: TIn): number | undefined {
    const out = this.upstream.nextValue(input);
    if (this.every > 0) this.keep(input);
    if (out === undefined) {
      this.raw = undefined;
      return undefined;
    }
    this.raw = out;
    this.last = this.toNumber(out);
    if (this.every > 0 && ++this.sinceRebuild >= this.every) this.rebuild();
    return this.last;
  }

  reset(): void {
    this.upstream = this.create();
    this.kept.fill(undefined);
    this.head = this.stored = this.sinceRebuild = 0;
    this.last = NaN;
    this.raw = undefined;
  }

  private toNumber(out: TOut): number {
    if (this.select) return this.select(out);
    if (typeof out !== 'number') {
      throw new InputError('select', `${this.name} returns ${typeof out} outputs; pass select to pick the number to use`);
    }
    return out;
  }

  private keep(input: TIn): void {
    this.kept[this.head] = input;
    this.head = this.head + 1 === this.kept.length ? 0 : this.head + 1;
    if (this.stored < this.kept.length) this.stored++;
  }

  /** Swaps in a fresh upstream fed the kept inputs, oldest first; the leaked one becomes garbage. */
  private rebuild(): void {
    const fresh = this.create();
    const cap = this.kept.length;
    for (let i = 0; i < this.stored; i++) {
      let idx = this.head - this.stored + i;
      if (idx < 0) idx += cap;
      fresh.nextValue(this.kept[idx] as TIn);
    }
    this.upstream = fresh;
    this.sinceRebuild = 0;
  }
}
