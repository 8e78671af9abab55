import { D, type Dec, ZERO } from '../../core/decimal.js';
import { SimError } from '../errors.js';
import { type IdSource } from '../ids.js';
import { type TransferLimitConfig, type TransferLimitView } from '../../platform/transfer-limits.js';

export { DEFAULT_TRANSFER_LIMITS, TRANSFER_TYPES, type TransferLimitConfig, type TransferLimitView } from '../../platform/transfer-limits.js';

/** One transfer counted against a limit (snapshots keep these). */
export interface LimitUsage {
  readonly rule: number;
  readonly atMs: number;
  readonly usd: string;
}

interface Rule {
  readonly id: string | undefined;
  readonly ruleId: string;
  readonly transferTypes: readonly string[];
  readonly periodMs: number;
  readonly limit: Dec;
  /** Transfers still inside the window, oldest first, and their running sum. */
  window: Array<{ readonly atMs: number; readonly usd: Dec }>;
  used: Dec;
}

/**
 * Transfer limits per transfer type, in USD: a per-transaction limit caps each transfer; a
 * periodic one caps the sum over the last `periodSeconds` (a rolling window), so `remaining` falls
 * as transfers are made and recovers as they age out. A transfer over any remaining amount is
 * refused (403) with the limit named in the problem.
 */
export class TransferLimits {
  private readonly rules: Rule[];

  constructor(configs: readonly TransferLimitConfig[], ids: IdSource) {
    this.rules = configs.map((c, i) => ({
      id: c.periodSeconds > 0 ? ids.derived('limit', i + 1) : undefined,
      ruleId: ids.derived('limit-rule', i + 1),
      transferTypes: [...c.transferTypes].sort(),
      periodMs: c.periodSeconds * 1000,
      limit: new D(c.limit),
      window: [],
      used: ZERO,
    }));
  }

  /** The limits covering `type`, with `remaining` as of `nowMs`. */
  forType(type: string, nowMs: number): TransferLimitView[] {
    return this.rules.flatMap((r) => (r.transferTypes.includes(type) ? [this.view(r, nowMs)] : []));
  }

  /** Checks a transfer of `usd` against every limit of `type` (per-transaction first) and counts it; throws when one is exceeded. */
  admit(type: string, usd: Dec, nowMs: number): void {
    this.check(type, usd, nowMs);
    this.record(type, usd, nowMs);
  }

  /** Counts a transfer of `usd` that `check` admitted (once the transfer is certain to be made). */
  record(type: string, usd: Dec, nowMs: number): void {
    for (const r of this.rules) if (r.periodMs > 0 && r.transferTypes.includes(type)) this.count(r, nowMs, usd);
  }

  /** Throws when a transfer of `usd` would exceed a limit of `type` (per-transaction first); counts nothing. */
  check(type: string, usd: Dec, nowMs: number): void {
    const views = this.forType(type, nowMs).sort((a, b) => a.periodSeconds - b.periodSeconds);
    for (const v of views) {
      if (usd.lte(v.remaining)) continue;
      const what = v.periodSeconds === 0 ? 'per-transaction limit' : `limit over ${v.periodSeconds} s`;
      throw new SimError(type.endsWith('_WITHDRAWAL') ? 'exceed-max-withdraw-limit' : 'transfer-limit-exceeded', `transfer of ${usd.toFixed(2)} USD exceeds the ${type} ${what} (rule ${v.ruleId}): ${v.remaining.toFixed()} of ${v.limit.toFixed()} USD remaining`, {
        ...(v.id !== undefined ? { limit_id: v.id } : {}),
        rule_id: v.ruleId,
        transfer_type: type,
        period_seconds: String(v.periodSeconds),
        limit: v.limit.toFixed(),
        remaining: v.remaining.toFixed(),
        limit_asset: 'USD',
        amount: usd.toFixed(2),
      });
    }
  }

  saved(): LimitUsage[] {
    return this.rules.flatMap((r, rule) => r.window.map((u) => ({ rule, atMs: u.atMs, usd: u.usd.toFixed() })));
  }

  restore(usage: readonly LimitUsage[]): void {
    for (const r of this.rules) {
      r.window = [];
      r.used = ZERO;
    }
    for (const u of [...usage].sort((a, b) => a.atMs - b.atMs)) {
      const r = this.rules[u.rule];
      if (r !== undefined && r.periodMs > 0) this.count(r, u.atMs, new D(u.usd));
    }
  }

  private count(r: Rule, atMs: number, usd: Dec): void {
    r.window.push({ atMs, usd });
    r.used = r.used.plus(usd);
  }

  /** Drops transfers that have aged out of the rule's window (they are appended in time order). */
  private expire(r: Rule, nowMs: number): void {
    let n = 0;
    while (n < r.window.length && r.window[n]!.atMs <= nowMs - r.periodMs) r.used = r.used.minus(r.window[n++]!.usd);
    if (n > 0) r.window.splice(0, n);
  }

  private view(r: Rule, nowMs: number): TransferLimitView {
    this.expire(r, nowMs);
    const left = r.limit.minus(r.used);
    return { id: r.id, ruleId: r.ruleId, transferTypes: r.transferTypes, periodSeconds: r.periodMs / 1000, limit: r.limit, remaining: left.isNegative() ? ZERO : left.toDecimalPlaces(2, D.ROUND_DOWN), limitAsset: 'USD' };
  }
}
