/**
 * The platform's transfer limits as data: the transfer types, how a limit is stated (the types it
 * covers, its period, its USD amount), the sandbox's defaults, and a limit as List Transfer Limits
 * reports it, and the rolling-window rule that counts transfers against them. The simulator and
 * point replay answer a violation as the platform does (src/sim/platform/transfer-limit-rules.ts);
 * the engine keeps the run's reading (src/engine/transfer-limits.ts).
 */
import { D, type Dec, ZERO } from '../core/decimal.js';

/** Every transfer type of the platform (the spec's TransferType enum). */
export const TRANSFER_TYPES = [
  'INTERNAL_TRANSFER_DEBIT',
  'INTERNAL_TRANSFER_CREDIT',
  'CRYPTO_DEPOSIT',
  'CRYPTO_WITHDRAWAL',
  'WIRE_DEPOSIT',
  'WIRE_WITHDRAWAL',
  'SEN_DEPOSIT',
  'SEN_WITHDRAWAL',
  'BANK_DEPOSIT',
  'BANK_WITHDRAWAL',
  'PAXOS_TRANSFER_DEBIT',
  'PAXOS_TRANSFER_CREDIT',
  'SIGNET_DEPOSIT',
  'SIGNET_WITHDRAWAL',
  'CBIT_WITHDRAWAL',
  'CBIT_DEPOSIT',
  'CUBIX_DEPOSIT',
  'CUBIX_WITHDRAWAL',
] as const;

/** A limit as configured: the transfer types it covers, its period (0 = per transaction) and USD amount. */
export interface TransferLimitConfig {
  readonly transferTypes: readonly string[];
  readonly periodSeconds: number;
  /** USD, decimal string. */
  readonly limit: string;
}

/** The sandbox's default limits (USD): per transaction and per rolling day, for the debit-side types. */
export const DEFAULT_TRANSFER_LIMITS: readonly TransferLimitConfig[] = [
  { transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 0, limit: '1000000' },
  { transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 86_400, limit: '5000000' },
  { transferTypes: ['PAXOS_TRANSFER_DEBIT'], periodSeconds: 86_400, limit: '5000000' },
  { transferTypes: ['CRYPTO_WITHDRAWAL'], periodSeconds: 0, limit: '100000' },
  { transferTypes: ['CRYPTO_WITHDRAWAL'], periodSeconds: 86_400, limit: '250000' },
  { transferTypes: ['WIRE_WITHDRAWAL'], periodSeconds: 86_400, limit: '1000000' },
];

/** One limit with what is left of it now (List Transfer Limits). */
export interface TransferLimitView {
  /** Absent for per-transaction limits (as on the platform). */
  readonly id: string | undefined;
  readonly ruleId: string;
  readonly transferTypes: readonly string[];
  readonly periodSeconds: number;
  readonly limit: Dec;
  readonly remaining: Dec;
  readonly limitAsset: 'USD';
}

/** How a limit's ids are made (the simulator's id source). */
export interface LimitIds {
  derived(stream: string, key: number): string;
}

/** Why a transfer is refused: the platform's problem kind, the message and the numbers behind it. */
export interface TransferLimitViolation {
  readonly kind: 'exceed-max-withdraw-limit' | 'transfer-limit-exceeded';
  readonly message: string;
  readonly details: Readonly<Record<string, string>>;
}

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
 * refused (403) with the limit named in the problem: `violation` says which, the caller answers it.
 */
export class TransferLimitRules {
  private readonly rules: Rule[];

  constructor(configs: readonly TransferLimitConfig[], ids: LimitIds) {
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

  /** Counts a transfer of `usd` that `check` admitted (once the transfer is certain to be made). */
  record(type: string, usd: Dec, nowMs: number): void {
    for (const r of this.rules) if (r.periodMs > 0 && r.transferTypes.includes(type)) this.count(r, nowMs, usd);
  }

  /** The first limit of `type` (per-transaction first) that a transfer of `usd` would exceed, or undefined; counts nothing. */
  violation(type: string, usd: Dec, nowMs: number): TransferLimitViolation | undefined {
    const views = this.forType(type, nowMs).sort((a, b) => a.periodSeconds - b.periodSeconds);
    for (const v of views) {
      if (usd.lte(v.remaining)) continue;
      const what = v.periodSeconds === 0 ? 'per-transaction limit' : `limit over ${v.periodSeconds} s`;
      return {
        kind: type.endsWith('_WITHDRAWAL') ? 'exceed-max-withdraw-limit' : 'transfer-limit-exceeded',
        message: `transfer of ${usd.toFixed(2)} USD exceeds the ${type} ${what} (rule ${v.ruleId}): ${v.remaining.toFixed()} of ${v.limit.toFixed()} USD remaining`,
        details: {
          ...(v.id !== undefined ? { limit_id: v.id } : {}),
          rule_id: v.ruleId,
          transfer_type: type,
          period_seconds: String(v.periodSeconds),
          limit: v.limit.toFixed(),
          remaining: v.remaining.toFixed(),
          limit_asset: 'USD',
          amount: usd.toFixed(2),
        },
      };
    }
    return undefined;
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
    return {
      id: r.id,
      ruleId: r.ruleId,
      transferTypes: r.transferTypes,
      periodSeconds: r.periodMs / 1000,
      limit: r.limit,
      remaining: left.isNegative() ? ZERO : left.toDecimalPlaces(2, D.ROUND_DOWN),
      limitAsset: 'USD',
    };
  }
}
