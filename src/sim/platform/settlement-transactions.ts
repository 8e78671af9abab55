import { D, type Dec } from '../../core/decimal.js';
import { assetDecimals } from '../../core/markets.js';
import { InputError } from '../../core/errors.js';
import { type AreaDeps } from './area-deps.js';
import { KNOWN_ASSETS } from '../market/catalog.js';
import { SimError } from '../errors.js';
import { type JsonObject, arrayValue, enumValue, objectValue, onlyFields, optionalText, optionalTime, requiredText } from './input.js';
import { type BalanceChange } from '../exchange/ledger.js';
import { amount as decimalAmount } from '../exchange/order-rules.js';
import { ownerOf } from '../owners.js';

export type SettlementStatus = 'PENDING' | 'AFFIRMED' | 'SETTLED' | 'EXPIRED' | 'CANCELLED';
export const SETTLEMENT_STATUSES: readonly SettlementStatus[] = ['PENDING', 'SETTLED', 'EXPIRED', 'CANCELLED', 'AFFIRMED'];

/** One obligation: DELIVER moves the asset from source to target, RECEIVE from target to source. */
export interface SettlementLeg {
  readonly id: string;
  readonly direction: 'DELIVER' | 'RECEIVE';
  readonly asset: string;
  readonly amount: Dec;
}

export interface SimSettlement {
  readonly id: string;
  readonly seq: number;
  readonly refId: string;
  readonly sourceOwner: string;
  readonly targetOwner: string;
  readonly sourceProfileId: string;
  readonly targetProfileId: string;
  readonly windowStart: number;
  readonly windowEnd: number;
  readonly legs: readonly SettlementLeg[];
  status: SettlementStatus;
  readonly createdAt: number;
  updatedAt: number;
}

/**
 * Two-party settlement transactions. PENDING on creation by the source profile's owner; the target's
 * owner affirms (AFFIRMED); inside the window, once both profiles hold enough available balance for
 * all legs, every leg moves in one atomic ledger change (SETTLED). The source's owner may cancel only
 * while PENDING; anything neither settled nor cancelled expires when the window ends.
 */
export class SettlementTransactions {
  private readonly byId = new Map<string, SimSettlement>();

  constructor(private readonly d: AreaDeps) {}

  create(body: JsonObject, owner: string, nowMs: number): SimSettlement {
    onlyFields(body, ['ref_id', 'settlement_window_start', 'settlement_window_end', 'source_profile_id', 'target_profile_id', 'legs']);
    const refId = optionalText(body.ref_id, 'ref_id', 100) ?? this.d.ids.next('settlement-refs');
    const clash = [...this.byId.values()].find((s) => s.sourceOwner === owner && s.refId === refId);
    if (clash !== undefined)
      throw new SimError('already-exists', `a settlement transaction with ref_id ${JSON.stringify(refId)} already exists`, undefined, {
        kind: 'settlement',
        id: clash.id,
      });
    const source = this.d.profiles.owned(
      requiredText(body.source_profile_id, 'source_profile_id', '"your profile id"', 100),
      owner,
      'source_profile_id',
    );
    const target = this.d.profiles.get(requiredText(body.target_profile_id, 'target_profile_id', '"the counterparty\'s profile id"', 100));
    if (target.id === source.id) throw new InputError('target_profile_id', 'must differ from source_profile_id');
    const start = optionalTime(body.settlement_window_start, 'settlement_window_start') ?? nowMs;
    const end = optionalTime(body.settlement_window_end, 'settlement_window_end') ?? start + this.d.settings.settlementWindowMs;
    if (end <= start) throw new InputError('settlement_window_end', 'must be after settlement_window_start');
    if (end <= nowMs) throw new InputError('settlement_window_end', 'must be in the future');
    const s: SimSettlement = {
      id: this.d.ids.next('settlements'),
      seq: this.byId.size + 1,
      refId,
      sourceOwner: owner,
      targetOwner: ownerOf(target),
      sourceProfileId: source.id,
      targetProfileId: target.id,
      windowStart: start,
      windowEnd: end,
      legs: this.legs(body.legs),
      status: 'PENDING',
      createdAt: nowMs,
      updatedAt: nowMs,
    };
    this.byId.set(s.id, s);
    return s;
  }

  /** Affirm: the target's owner only (403), PENDING only (400); settles at once when it can. */
  affirm(id: string, owner: string, nowMs: number): SimSettlement {
    const s = this.visible(id, owner);
    if (s.targetOwner !== owner)
      throw new SimError('forbidden', `only the owner of the target profile ${s.targetProfileId} may affirm settlement ${id}`);
    if (s.status !== 'PENDING')
      throw new SimError('bad-request', `settlement ${id} is ${s.status}: only a PENDING transaction can be affirmed`, {
        status: s.status,
      });
    this.move(s, 'AFFIRMED', nowMs);
    this.trySettle(s, nowMs);
    return s;
  }

  /** Cancel: the source's owner only (403), PENDING only (409: an affirmed one cannot be cancelled). */
  cancel(id: string, owner: string, nowMs: number): SimSettlement {
    const s = this.visible(id, owner);
    if (s.sourceOwner !== owner)
      throw new SimError('forbidden', `only the owner of the source profile ${s.sourceProfileId} may cancel settlement ${id}`);
    if (s.status !== 'PENDING')
      throw new SimError('conflict', `settlement ${id} is ${s.status}: only a PENDING transaction can be cancelled`, { status: s.status });
    this.move(s, 'CANCELLED', nowMs);
    return s;
  }

  /** A transaction the caller is party to (404 unknown, 403 when it owns neither profile). */
  visible(id: string, owner: string): SimSettlement {
    const s = this.byId.get(id);
    if (s === undefined) throw new SimError('not-found', `settlement transaction ${id} not found`);
    if (s.sourceOwner !== owner && s.targetOwner !== owner)
      throw new SimError('forbidden', `settlement ${id} is not yours: you own neither its source nor its target profile`);
    return s;
  }

  list(owner: string): SimSettlement[] {
    return [...this.byId.values()].filter((s) => s.sourceOwner === owner || s.targetOwner === owner);
  }

  /** Expires what the window has closed on; settles affirmed transactions whose window is open. */
  advance(atMs: number): void {
    for (const s of this.byId.values()) {
      if (s.status !== 'PENDING' && s.status !== 'AFFIRMED') continue;
      if (s.status === 'AFFIRMED') this.trySettle(s, Math.min(atMs, s.windowEnd - 1));
      if ((s.status === 'PENDING' || s.status === 'AFFIRMED') && atMs >= s.windowEnd) this.move(s, 'EXPIRED', s.windowEnd);
    }
  }

  /** Any record by id (409 bodies). */
  find(id: string): SimSettlement | undefined {
    return this.byId.get(id);
  }

  saved(): Array<Record<string, unknown>> {
    return [...this.byId.values()].map((s) => ({ ...s, legs: s.legs.map((l) => ({ ...l, amount: l.amount.toFixed() })) }));
  }

  restore(items: ReadonlyArray<Record<string, unknown>> | undefined): void {
    for (const raw of items ?? []) {
      const s = raw as unknown as SimSettlement & { legs: Array<SettlementLeg & { amount: string }> };
      this.byId.set(s.id, { ...s, legs: s.legs.map((l) => ({ ...l, amount: new D(l.amount) })) });
    }
  }

  private trySettle(s: SimSettlement, atMs: number): void {
    if (s.status !== 'AFFIRMED' || atMs < s.windowStart || atMs >= s.windowEnd) return;
    const changes: BalanceChange[] = [];
    const needs = new Map<string, Dec>();
    for (const l of s.legs) {
      const [from, to] = l.direction === 'DELIVER' ? [s.sourceProfileId, s.targetProfileId] : [s.targetProfileId, s.sourceProfileId];
      changes.push({ profileId: from, asset: l.asset, available: l.amount.neg() }, { profileId: to, asset: l.asset, available: l.amount });
      const key = `${from}\u0000${l.asset}`;
      needs.set(key, (needs.get(key) ?? new D(0)).plus(l.amount));
    }
    for (const [key, need] of needs) {
      const [profileId, asset] = key.split('\u0000') as [string, string];
      if (this.d.ledger.get(profileId, asset).available.lt(need)) return;
    }
    try {
      this.d.gate.check(s.sourceProfileId);
      this.d.gate.check(s.targetProfileId);
    } catch {
      return;
    }
    this.d.ledger.apply(changes);
    this.move(s, 'SETTLED', atMs);
  }

  private move(s: SimSettlement, status: SettlementStatus, atMs: number): void {
    s.status = status;
    s.updatedAt = atMs;
  }

  private legs(value: unknown): SettlementLeg[] {
    const list = arrayValue(value, 'legs', 100);
    if (list.length === 0) throw new InputError('legs', 'required: at least one leg {direction: DELIVER or RECEIVE, asset, amount}');
    return list.map((raw, i) => {
      const l = objectValue(raw, `legs[${i}]`, '{direction, asset, amount}');
      onlyFields(l, ['direction', 'asset', 'amount'], `legs[${i}].`);
      const asset = requiredText(l.asset, `legs[${i}].asset`, '"USD"', 10);
      if (!KNOWN_ASSETS.includes(asset))
        throw new InputError(
          `legs[${i}].asset`,
          `${JSON.stringify(asset)} is not an asset of the sandbox: use one of ${KNOWN_ASSETS.join(', ')}`,
        );
      const amount = decimalAmount(l.amount, `legs[${i}].amount`, assetDecimals(asset));
      if (amount === undefined) throw new InputError(`legs[${i}].amount`, 'required: a decimal string such as "100.00"');
      return {
        id: this.d.ids.next('settlement-legs'),
        direction: enumValue(l.direction, `legs[${i}].direction`, ['DELIVER', 'RECEIVE'] as const),
        asset,
        amount,
      };
    });
  }
}
