import { D, type DenialReason, type Intent } from '../../core/index.js';
import { deny } from '../denial.js';
import type { RiskView } from '../view.js';

const AMOUNT = /^(\d+\.?\d*|\.\d+)$/;

/** Transfer intents: a positive amount, enough balance, and within the transfer limit's `remaining`. */
export function checkTransfer(intent: Extract<Intent, { kind: 'transfer' }>, view: RiskView): DenialReason | undefined {
  if (typeof intent.amount !== 'string' || !AMOUNT.test(intent.amount) || new D(intent.amount).lte(0)) {
    return deny('INVALID_INTENT', `amount must be a positive decimal string, got ${JSON.stringify(intent.amount)}`, { field: 'amount' });
  }
  if (intent.fromProfileId === intent.toProfileId)
    return deny('INVALID_INTENT', 'fromProfileId and toProfileId are the same profile', { field: 'toProfileId' });
  const amount = new D(intent.amount);
  const available = view.available(intent.asset);
  if (amount.gt(available))
    return deny('INSUFFICIENT_BALANCE', `needs ${amount.toFixed()} ${intent.asset}, ${available.toFixed()} available`, {
      asset: intent.asset,
      required: amount.toFixed(),
      available: available.toFixed(),
    });
  const remaining = view.transferRemaining(intent.asset);
  if (remaining !== undefined && amount.gt(remaining)) {
    return deny('TRANSFER_LIMIT', `transfer of ${amount.toFixed()} exceeds the remaining limit ${remaining.toFixed()}`, {
      amount: amount.toFixed(),
      remaining: remaining.toFixed(),
      asset: intent.asset,
    });
  }
  return undefined;
}
