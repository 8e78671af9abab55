import { InputError } from '../../core/errors.js';
import { SimError } from '../errors.js';
import { type IdSource } from '../ids.js';
import { type JsonObject, enumValue, onlyFields, optionalBool, optionalObject, optionalText } from './input.js';
import { CRYPTO_NETWORKS } from './transfers.js';

/** A crypto destination address of an entity's address book (PutCryptoDestinationAddress). */
export interface SimDestinationAddress {
  readonly id: string;
  readonly seq: number;
  readonly owner: string;
  readonly cryptoNetwork: string;
  readonly address: string;
  nickname: string;
  bookmarked: boolean;
  travelruleMetadata: JsonObject | undefined;
  readonly createdAt: number;
  updatedAt: number;
}

/**
 * The address book of crypto destinations: PutCryptoDestinationAddress creates an entry for a
 * (network, address) pair or updates one (by `id`, or by the pair); entries are APPROVED at once
 * (the sandbox runs no screening). Each entity sees only its own.
 */
export class DestinationAddressBook {
  private readonly byId = new Map<string, SimDestinationAddress>();

  constructor(private readonly ids: IdSource) {}

  put(body: JsonObject, owner: string, nowMs: number): SimDestinationAddress {
    onlyFields(body, ['id', 'crypto_network', 'address', 'nickname', 'bookmarked_status', 'travelrule_metadata']);
    const id = optionalText(body.id, 'id', 100);
    const addressText = optionalText(body.address, 'address', 200);
    const given =
      body.crypto_network === undefined || body.crypto_network === ''
        ? undefined
        : enumValue(body.crypto_network, 'crypto_network', CRYPTO_NETWORKS);
    if (id !== undefined && (addressText !== undefined || given !== undefined))
      throw new InputError('id', 'give either id or crypto_network and address, not both');
    const nickname = optionalText(body.nickname, 'nickname', 100);
    const bookmarked = optionalBool(body.bookmarked_status, 'bookmarked_status');
    const travel = optionalObject(body.travelrule_metadata, 'travelrule_metadata', 'the travel-rule details of the destination');
    if (travel !== undefined) onlyFields(travel, ['beneficiary', 'vasp', 'custodian_type'], 'travelrule_metadata.');
    let entry: SimDestinationAddress | undefined;
    if (id !== undefined) {
      entry = this.byId.get(id);
      if (entry === undefined || entry.owner !== owner) throw new SimError('not-found', `crypto destination address ${id} not found`);
    } else {
      if (given === undefined)
        throw new InputError(
          'crypto_network',
          `required with address: one of ${CRYPTO_NETWORKS.join(', ')} (or give the id of an entry to update)`,
        );
      if (addressText === undefined)
        throw new InputError('address', 'required with crypto_network: the destination address (or give the id of an entry to update)');
      entry = this.list(owner).find((a) => a.cryptoNetwork === given && a.address === addressText);
      if (entry === undefined) {
        const seq = this.byId.size + 1;
        entry = {
          id: this.ids.next('destination-addresses'),
          seq,
          owner,
          cryptoNetwork: given,
          address: addressText,
          nickname: nickname ?? `address-${seq}`,
          bookmarked: bookmarked ?? false,
          travelruleMetadata: travel,
          createdAt: nowMs,
          updatedAt: nowMs,
        };
        this.byId.set(entry.id, entry);
        return entry;
      }
    }
    if (nickname !== undefined) entry.nickname = nickname;
    if (bookmarked !== undefined) entry.bookmarked = bookmarked;
    if (travel !== undefined) entry.travelruleMetadata = travel;
    entry.updatedAt = nowMs;
    return entry;
  }

  list(owner: string): SimDestinationAddress[] {
    return [...this.byId.values()].filter((a) => a.owner === owner);
  }

  saved(): SimDestinationAddress[] {
    return [...this.byId.values()];
  }

  restore(items: readonly SimDestinationAddress[] | undefined): void {
    for (const a of items ?? []) this.byId.set(a.id, { ...a });
  }
}
