/**
 * The fill models' profiles and the internal transfers between them (point replay and the
 * recorded-book venue share this one implementation). A backtest trades in one profile (its own);
 * other profiles are configured with their funding or come into being when a transfer first pays
 * them. A transfer is admitted by the platform's rule as the sandbox admits it (the same field checks
 * `checkBetweenProfiles`, then `admitDebit`: the transfer limits of src/platform/transfer-limits.ts,
 * then the funds, in that order), so a transfer the sandbox refuses is refused here with the same
 * code and words; unlike the sandbox's, which settles a second later, it settles at once (as the fill
 * models' quote executions do).
 */
import { D, type Dec, ZERO } from '../../core/decimal.js';
import { InputError } from '../../core/errors.js';
import { splitMarket } from '../../core/markets.js';
import { FX_PER_USD } from '../../sim/market/catalog.js';
import { SimError } from '../../sim/errors.js';
import { IdSource } from '../../sim/ids.js';
import { type Balances } from '../../sim/exchange/ledger.js';
import {
  DEFAULT_TRANSFER_LIMITS,
  type TransferLimitConfig,
  type TransferLimitView,
  TransferLimits,
} from '../../sim/platform/transfer-limit-rules.js';
import { admitDebit, checkBetweenProfiles, sameProfileError } from '../../sim/platform/transfers.js';

/** The transfer type of an internal transfer, seen from the paying profile (what its limits cover). */
export const INTERNAL_DEBIT = 'INTERNAL_TRANSFER_DEBIT';

/** The sandbox's default seed: with it the limits' rule ids are those of a default sandbox. */
const SANDBOX_SEED = 42;

/** What a caller asks to move (wire values, checked here). */
export interface PointTransferRequest {
  readonly refId: string;
  readonly asset: string;
  readonly amount: string;
  readonly fromProfileId: string;
  readonly toProfileId: string;
}

/** A settled transfer between two profiles of the replay. */
export interface PointTransfer {
  readonly transferId: string;
  readonly refId: string;
  readonly asset: string;
  readonly amount: Dec;
  readonly fromProfileId: string;
  readonly toProfileId: string;
  readonly status: 'COMPLETED';
  readonly at: number;
}

export interface PointProfilesOptions {
  /** The replay's own profile (the one it trades in; the `default` alias names it). */
  readonly ownId: string;
  /** Other profiles, id → initial balances (asset → decimal string). */
  readonly others?: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined;
  /** Transfer limits in USD (default: the sandbox's DEFAULT_TRANSFER_LIMITS). */
  readonly limits?: readonly TransferLimitConfig[] | undefined;
  /** Seed of the limits' rule ids (default 42, the sandbox's default seed). */
  readonly seed?: number | undefined;
}

/** Profiles, their transfers (idempotent by ref_id) and the transfer limits of one replay. */
export class PointProfiles {
  readonly ownId: string;
  private readonly known = new Set<string>();
  private readonly limits: TransferLimits;
  private readonly byRef = new Map<string, PointTransfer>();

  constructor(
    private readonly ledger: Balances,
    options: PointProfilesOptions,
  ) {
    this.ownId = options.ownId;
    this.known.add(this.ownId);
    this.limits = new TransferLimits(options.limits ?? DEFAULT_TRANSFER_LIMITS, new IdSource(options.seed ?? SANDBOX_SEED));
    for (const [id, funding] of Object.entries(options.others ?? {})) this.add(id, funding);
  }

  /** Adds a configured profile with its initial balances (asset → decimal string). */
  private add(profileId: string, funding: Readonly<Record<string, string>>): void {
    if (profileId === 'default' || this.known.has(profileId))
      throw new InputError(
        'profiles',
        `${JSON.stringify(profileId)} names the replay's own profile (${this.ownId}, alias default): give other profiles other ids`,
      );
    this.known.add(profileId);
    for (const [asset, value] of Object.entries(funding)) this.ledger.credit(profileId, asset, new D(value));
  }

  /** The id a profile id or the `default` alias names; a profile the replay does not hold is not found. */
  resolve(idOrAlias: string): string {
    const id = idOrAlias === 'default' ? this.ownId : idOrAlias;
    if (!this.known.has(id)) throw new SimError('not-found', `profile ${idOrAlias} not found`);
    return id;
  }

  /**
   * Moves available funds between two profiles at `nowMs`, settled at once. A repeated ref_id returns
   * the transfer made with it. `usdValue` values the amount for the limits (as the sandbox does).
   */
  transfer(req: PointTransferRequest, nowMs: number, usdValue: (asset: string, amount: Dec) => Dec, newId: () => string): PointTransfer {
    const c = checkBetweenProfiles(req);
    const from = this.resolve(c.fromId);
    const to = c.toId === 'default' ? this.ownId : c.toId;
    if (from === to) throw sameProfileError();
    const prior = c.refId === undefined ? undefined : this.byRef.get(c.refId);
    if (prior !== undefined) return prior;
    admitDebit(this.limits, this.ledger, INTERNAL_DEBIT, from, c.asset, c.amount, usdValue(c.asset, c.amount), nowMs);
    this.ledger.apply([
      { profileId: from, asset: c.asset, available: c.amount.neg() },
      { profileId: to, asset: c.asset, available: c.amount },
    ]);
    this.known.add(to);
    const t: PointTransfer = {
      transferId: newId(),
      refId: c.refId ?? '',
      asset: c.asset,
      amount: c.amount,
      fromProfileId: from,
      toProfileId: to,
      status: 'COMPLETED',
      at: nowMs,
    };
    if (c.refId !== undefined) this.byRef.set(c.refId, t);
    return t;
  }

  findByRef(refId: string): PointTransfer | undefined {
    return this.byRef.get(refId);
  }

  /** The limits covering `type`, with what remains of each at `nowMs` (List Transfer Limits). */
  limitsFor(type: string, nowMs: number): TransferLimitView[] {
    return this.limits.forType(type, nowMs);
  }
}

/**
 * The USD value of `amount` of `asset` for the transfer limits, as the sandbox values it: fiat at its
 * fixed rate, crypto at the current price of a replayed market with it as base (in that market's quote,
 * converted at its fixed rate), and 0 for an asset no replayed market prices.
 */
export function usdValue(asset: string, amount: Dec, prices: ReadonlyMap<string, { readonly price: number }>): Dec {
  const fx = FX_PER_USD[asset];
  if (fx !== undefined) return amount.times(new D(1).div(fx));
  for (const [market, p] of prices) {
    const { base, quote } = splitMarket(market);
    const quoteFx = FX_PER_USD[quote];
    if (base === asset && quoteFx !== undefined) return amount.times(new D((p.price / quoteFx).toFixed(8)));
  }
  return ZERO;
}
