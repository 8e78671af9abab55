import { type Dec } from '../../core/decimal.js';
import { TransferLimitRules } from '../../platform/transfer-limits.js';
import { SimError } from '../errors.js';

export {
  DEFAULT_TRANSFER_LIMITS,
  TRANSFER_TYPES,
  type LimitUsage,
  type TransferLimitConfig,
  type TransferLimitView,
} from '../../platform/transfer-limits.js';

/** The platform's transfer limits (src/platform/transfer-limits.ts), a violation answered as the simulated platform's 403 problem. */
export class TransferLimits extends TransferLimitRules {
  /** Checks a transfer of `usd` against every limit of `type` (per-transaction first) and counts it; throws when one is exceeded. */
  admit(type: string, usd: Dec, nowMs: number): void {
    this.check(type, usd, nowMs);
    this.record(type, usd, nowMs);
  }

  /** Throws when a transfer of `usd` would exceed a limit of `type` (per-transaction first); counts nothing. */
  check(type: string, usd: Dec, nowMs: number): void {
    const v = this.violation(type, usd, nowMs);
    if (v !== undefined) throw new SimError(v.kind, v.message, v.details);
  }
}
