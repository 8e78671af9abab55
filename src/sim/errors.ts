import { TradeloopError } from '../core/errors.js';

/** The business outcomes the simulated platform refuses with; the sandbox maps each to a problem. */
export type SimErrorKind =
  | 'not-found'
  | 'already-exists'
  | 'insufficient-funds'
  | 'notional-value-too-large'
  | 'forbidden'
  | 'exceed-precision'
  | 'expired'
  | 'rejected'
  | 'transfer-limit-exceeded'
  /** A withdrawal over its transfer limit (the catalog's 400 `exceed-max-withdraw-limit`). */
  | 'exceed-max-withdraw-limit'
  /** A state conflict: the record is not in a state the operation applies to (409). */
  | 'conflict'
  /** A request the record's state makes invalid, with no single field to blame (400). */
  | 'bad-request';

/** The earlier record behind an `already-exists` refusal. */
export interface ExistingRecord {
  readonly kind:
    | 'profile'
    | 'order'
    | 'quote-execution'
    | 'transfer'
    | 'identity'
    | 'account'
    | 'fiat-account'
    | 'deposit-instructions'
    | 'deposit-address'
    | 'settlement'
    | 'conversion';
  readonly id: string;
}

/**
 * A refusal by the simulated platform (not a bug, not bad syntax). `kind` is stable and maps to the
 * platform's problem types; `meta` carries the numbers behind it (e.g. available and needed funds).
 */
export class SimError extends TradeloopError {
  constructor(
    readonly kind: SimErrorKind,
    message: string,
    readonly meta?: Readonly<Record<string, unknown>>,
    /** For `already-exists`: the record created earlier, for the 409's `meta.existing`. */
    readonly existing?: ExistingRecord,
  ) {
    super(`SIM_${kind.toUpperCase().replace(/-/g, '_')}`, message);
  }
}
