import { InputError } from '../core/errors.js';
import { type Rng } from '../core/rng.js';
import { FaultLog, type FaultMode, type InjectedFault } from './fault-log.js';

export type { FaultMode, InjectedFault } from './fault-log.js';

export const FAULT_MODES: readonly FaultMode[] = [
  'latency',
  'error5xx',
  'error429',
  'drop',
  'truncate',
  'commit-drop',
  'commit-5xx',
  'malformed',
  'wrong-shape',
];

/** Modes that only make sense for writes (on a read they would equal a plain fault). */
const WRITE_ONLY: ReadonlySet<FaultMode> = new Set(['commit-drop', 'commit-5xx']);

/** One fault rule: a mode, where it applies, and how often. */
export interface FaultRule {
  readonly mode: FaultMode;
  /** An operationId (`CreateOrder`), a path prefix (`/v2/orders`), or absent for every API request. */
  readonly target?: string;
  /** Probability per matching request, 0..1 (default 1). */
  readonly rate?: number;
  /** Only the next N matching requests; the rule is then spent. */
  readonly count?: number;
  /** For `latency`: the delay added. */
  readonly latencyMs?: number;
}

export interface FaultSettings {
  readonly rules: readonly FaultRule[];
  /** Seed of the fault dice (default: the sandbox's seed), so a failing run repeats. */
  readonly seed?: number;
  /** Retry-After of injected 429s, whole seconds (default 1). */
  readonly retryAfterSec?: number;
  /** Injected-fault records kept, newest only (default 1,000; counters stay exact). */
  readonly logLimit?: number;
}

/** What the server does to one request. */
export interface FaultPlan {
  readonly latencyMs: number;
  readonly action: Exclude<FaultMode, 'latency'> | 'none';
}

const NO_FAULT: FaultPlan = { latencyMs: 0, action: 'none' };
const ALIASES: Readonly<Record<string, FaultMode>> = {
  '5xx': 'error5xx',
  '429': 'error429',
  'commit-then-drop': 'commit-drop',
  commitdrop: 'commit-drop',
  '5xx-after-commit': 'commit-5xx',
};

/**
 * Decides per request which faults to inject, with seeded dice. Rules without a target never touch
 * the token endpoint or the admin path; `commit-drop` and `commit-5xx` apply to writes only. Rules can be added
 * while the server runs (`add`), e.g. "drop the response of the next CreateOrder only".
 */
export class FaultInjector {
  private rules: Array<FaultRule & { left: number | undefined }>;
  /** What was injected: exact counts per mode, and the newest records (bounded). */
  readonly log: FaultLog;

  constructor(
    settings: FaultSettings,
    private readonly rng: Rng,
    readonly retryAfterSec = settings.retryAfterSec ?? 1,
  ) {
    this.rules = settings.rules.map((r) => ({ ...r, left: r.count }));
    this.log = new FaultLog(settings.logLimit);
  }

  /**
   * The newest injected faults, oldest first: at most `log.limit` of them, so count with
   * `log.total` and `log.count(mode)`, which are exact.
   */
  get injected(): readonly InjectedFault[] {
    return this.log.recent();
  }

  add(rule: FaultRule): void {
    this.rules.push({ ...checkRule(rule), left: rule.count });
  }

  clear(): void {
    this.rules = [];
  }

  active(): readonly FaultRule[] {
    return this.rules.filter((r) => r.left === undefined || r.left > 0);
  }

  decide(operation: string, method: string, path: string, internal = false): FaultPlan {
    if (this.rules.length === 0) return NO_FAULT;
    let latencyMs = 0;
    let action: FaultPlan['action'] = 'none';
    for (const r of this.rules) {
      if (r.left !== undefined && r.left <= 0) continue;
      if (!matches(r, operation, path, internal) || (WRITE_ONLY.has(r.mode) && method === 'GET')) continue;
      if (r.mode !== 'latency' && action !== 'none') continue;
      if (r.rate !== undefined && r.rate < 1 && !this.rng.chance(r.rate)) continue;
      if (r.left !== undefined) r.left--;
      this.log.record({ mode: r.mode, operation, method, path });
      if (r.mode === 'latency') latencyMs += r.latencyMs ?? 0;
      else action = r.mode;
    }
    return latencyMs === 0 && action === 'none' ? NO_FAULT : { latencyMs, action };
  }
}

function matches(r: FaultRule, operation: string, path: string, internal: boolean): boolean {
  if (r.target === undefined) return !internal;
  return r.target.startsWith('/') ? path.startsWith(r.target) : r.target === operation;
}

function checkRule(r: FaultRule): FaultRule {
  if (!FAULT_MODES.includes(r.mode))
    throw new InputError('faults', `unknown fault mode ${JSON.stringify(r.mode)}: use one of ${FAULT_MODES.join(', ')}`);
  if (r.rate !== undefined && !(r.rate >= 0 && r.rate <= 1))
    throw new InputError('faults', `${r.mode}: rate must be from 0 to 1, got ${r.rate}`);
  if (r.count !== undefined && !(Number.isInteger(r.count) && r.count > 0))
    throw new InputError('faults', `${r.mode}: count must be a positive integer, got ${r.count}`);
  return r;
}

/**
 * Parses `--faults`: comma-separated `mode[@target]=value`. Modes: latency (value a duration such
 * as 50ms or 1s), error5xx|5xx, error429|429, drop, truncate, commit-drop, commit-5xx, malformed,
 * wrong-shape (value a rate such as
 * 0.05 or 5%, `once`, or `3x` for the next three matching requests). Settings: `seed=N`,
 * `retry-after=2s`, `log=N` (injected-fault records kept). Example: `latency=50ms,error5xx=0.05,commit-drop@CreateOrder=once`.
 */
export function parseFaults(text: string): FaultSettings {
  const rules: FaultRule[] = [];
  let seed: number | undefined;
  let retryAfterSec: number | undefined;
  let logLimit: number | undefined;
  for (const raw of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9-]+)(?:@([^=]+))?=(.+)$/i.exec(raw);
    if (m === null)
      throw new InputError(
        '--faults',
        `${JSON.stringify(raw)} is not mode[@target]=value, e.g. error5xx=0.05 or commit-drop@CreateOrder=once`,
      );
    const [, name, target, value] = m as unknown as [string, string, string | undefined, string];
    if (name === 'seed') seed = integer(value, 'seed');
    else if (name === 'retry-after') retryAfterSec = Math.ceil(duration(value, 'retry-after') / 1000);
    else if (name === 'log') logLimit = integer(value, 'log');
    else {
      const mode = ALIASES[name.toLowerCase()] ?? (name.toLowerCase() as FaultMode);
      const base = { mode, ...(target !== undefined ? { target } : {}) };
      rules.push(checkRule(mode === 'latency' ? { ...base, latencyMs: duration(value, name) } : { ...base, ...frequency(value, name) }));
    }
  }
  return {
    rules,
    ...(seed !== undefined ? { seed } : {}),
    ...(retryAfterSec !== undefined ? { retryAfterSec } : {}),
    ...(logLimit !== undefined ? { logLimit } : {}),
  };
}

/** One line naming every active fault, for the start-up banner. */
export function describeFaults(rules: readonly FaultRule[], retryAfterSec: number): string {
  if (rules.length === 0) return 'none';
  return rules
    .map((r) => {
      const where = r.target === undefined ? '' : `@${r.target}`;
      const how =
        r.mode === 'latency'
          ? `${r.latencyMs ?? 0}ms`
          : r.count !== undefined
            ? `next ${r.count}`
            : `${+((r.rate ?? 1) * 100).toFixed(4)}%`;
      return `${r.mode}${where}=${how}${r.mode === 'error429' ? ` (Retry-After ${retryAfterSec}s)` : ''}`;
    })
    .join(', ');
}

function frequency(value: string, name: string): { rate?: number; count?: number } {
  if (value === 'once') return { count: 1 };
  const times = /^(\d+)x$/.exec(value);
  if (times !== null) return { count: Number(times[1]) };
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(value);
  const rate = pct !== null ? Number(pct[1]) / 100 : /^\d*\.?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(rate >= 0 && rate <= 1))
    throw new InputError('--faults', `${name}: expected a rate from 0 to 1 (or 5%), once, or Nx, got ${JSON.stringify(value)}`);
  return { rate };
}

function duration(value: string, name: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(value);
  if (m === null) throw new InputError('--faults', `${name}: expected a duration such as 50ms or 2s, got ${JSON.stringify(value)}`);
  return Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1));
}

function integer(value: string, name: string): number {
  if (!/^\d{1,10}$/.test(value)) throw new InputError('--faults', `${name}: expected a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}
