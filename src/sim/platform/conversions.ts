import { D, type Dec } from '../../core/decimal.js';
import { InputError } from '../../core/errors.js';
import { type AreaDeps } from './area-deps.js';
import { USD_STABLECOINS } from './crypto.js';
import { SimError } from '../errors.js';
import { ownedLinks } from './fiat-transfers.js';
import { type JsonObject, onlyFields, optionalText, requiredText } from './input.js';
import { metadata } from '../exchange/order-rules.js';

export type ConversionStatus = 'CREATED' | 'SETTLED' | 'CANCELLED';

export interface SimConversion {
  readonly id: string;
  readonly seq: number;
  readonly owner: string;
  readonly profileId: string;
  readonly recipientProfileId: string | undefined;
  readonly amount: Dec;
  readonly sourceAsset: string;
  readonly targetAsset: string;
  readonly refId: string | undefined;
  readonly identityId: string | undefined;
  readonly accountId: string | undefined;
  readonly metadata: Readonly<Record<string, string>>;
  status: ConversionStatus;
  readonly createdAt: number;
  updatedAt: number;
  readonly settleAt: number;
  settledAt: number | undefined;
  cancelledAt: number | undefined;
}

/**
 * Stablecoin conversions at 1:1 between USD and the platform's USD stablecoins: the source amount is
 * locked (available → trading) on creation (CREATED), leaves `conversionSettleMs` later when the
 * target asset is credited to the profile or the named recipient (SETTLED), or goes back on cancel
 * (CANCELLED, only while CREATED). Refusals: above the per-request maximum (400), insufficient
 * funds (403), a reused ref_id (409 with the earlier record).
 */
export class ConversionStore {
  private readonly byId = new Map<string, SimConversion>();

  constructor(private readonly d: AreaDeps) {}

  create(body: JsonObject, owner: string, nowMs: number): SimConversion {
    onlyFields(body, [
      'profile_id',
      'amount',
      'source_asset',
      'target_asset',
      'ref_id',
      'identity_id',
      'account_id',
      'metadata',
      'recipient_profile_id',
    ]);
    const source = requiredText(body.source_asset, 'source_asset', '"USD"', 10);
    const target = requiredText(body.target_asset, 'target_asset', '"USDP"', 10);
    const pairs = USD_STABLECOINS.flatMap((c) => [`USD→${c}`, `${c}→USD`]);
    if (!pairs.includes(`${source}→${target}`))
      throw new InputError(
        source === 'USD' || USD_STABLECOINS.includes(source) ? 'target_asset' : 'source_asset',
        `convert USD to a stablecoin or back: ${pairs.join(', ')}`,
      );
    if (typeof body.amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(body.amount))
      throw new InputError('amount', 'expected digits with at most 2 decimals, e.g. "100.00"');
    const amount = new D(body.amount);
    if (!amount.gt(0)) throw new InputError('amount', 'must be greater than zero');
    const max = new D(this.d.settings.conversionMax);
    if (amount.gt(max))
      throw new SimError(
        'bad-request',
        `amount ${amount.toFixed()} is above the per-request maximum of ${max.toFixed()}: split the conversion`,
        { field: 'amount', maximum: max.toFixed() },
      );
    const profile = this.d.profiles.owned(requiredText(body.profile_id, 'profile_id', '"default"', 100), owner);
    const recipientId = optionalText(body.recipient_profile_id, 'recipient_profile_id', 100);
    const recipient = recipientId === undefined ? undefined : this.d.profiles.get(recipientId);
    const links = ownedLinks(this.d, body, owner);
    const refId = optionalText(body.ref_id, 'ref_id', 100);
    const clash = refId === undefined ? undefined : this.list(owner).find((c) => c.refId === refId);
    if (clash !== undefined)
      throw new SimError('already-exists', `a stablecoin conversion with ref_id ${JSON.stringify(refId)} already exists`, undefined, {
        kind: 'conversion',
        id: clash.id,
      });
    this.d.gate.check(profile.id, links);
    this.d.ledger.reserve(profile.id, source, amount);
    const c: SimConversion = {
      id: this.d.ids.next('conversions'),
      seq: this.byId.size + 1,
      owner,
      profileId: profile.id,
      recipientProfileId: recipient?.id,
      amount,
      sourceAsset: source,
      targetAsset: target,
      refId,
      identityId: links.identityId,
      accountId: links.accountId,
      metadata: metadata(body.metadata),
      status: 'CREATED',
      createdAt: nowMs,
      updatedAt: nowMs,
      settleAt: nowMs + this.d.settings.conversionSettleMs,
      settledAt: undefined,
      cancelledAt: undefined,
    };
    this.byId.set(c.id, c);
    return c;
  }

  cancel(id: string, owner: string, nowMs: number): SimConversion {
    const c = this.get(id, owner);
    if (c.status !== 'CREATED')
      throw new SimError('conflict', `stablecoin conversion ${id} is ${c.status}: only a CREATED conversion can be cancelled`, {
        status: c.status,
      });
    this.d.ledger.release(c.profileId, c.sourceAsset, c.amount);
    c.status = 'CANCELLED';
    c.cancelledAt = nowMs;
    c.updatedAt = nowMs;
    return c;
  }

  /** Settles every CREATED conversion due at or before `atMs`. */
  advance(atMs: number): void {
    for (const c of this.byId.values()) {
      if (c.status !== 'CREATED' || c.settleAt > atMs) continue;
      this.d.ledger.apply([
        { profileId: c.profileId, asset: c.sourceAsset, trading: c.amount.neg() },
        { profileId: c.recipientProfileId ?? c.profileId, asset: c.targetAsset, available: c.amount },
      ]);
      c.status = 'SETTLED';
      c.settledAt = c.settleAt;
      c.updatedAt = c.settleAt;
    }
  }

  /** One conversion: 404 when unknown, 403 when another entity's. */
  get(id: string, owner: string): SimConversion {
    const c = this.byId.get(id);
    if (c === undefined) throw new SimError('not-found', `stablecoin conversion ${id} not found`);
    if (c.owner !== owner) throw new SimError('forbidden', `stablecoin conversion ${id} belongs to another entity`);
    return c;
  }

  list(owner: string): SimConversion[] {
    return [...this.byId.values()].filter((c) => c.owner === owner);
  }

  /** Any record by id (409 bodies). */
  find(id: string): SimConversion | undefined {
    return this.byId.get(id);
  }

  saved(): Array<Record<string, unknown>> {
    return [...this.byId.values()].map((c) => ({ ...c, amount: c.amount.toFixed() }));
  }

  restore(items: ReadonlyArray<Record<string, unknown>> | undefined): void {
    for (const raw of items ?? []) {
      const c = raw as unknown as SimConversion & { amount: string };
      this.byId.set(c.id, { ...c, amount: new D(c.amount) });
    }
  }
}
