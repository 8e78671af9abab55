import { hashLabel } from './hash.js';
import { type IdSource } from './ids.js';

/**
 * Entities (customers) of the sandbox. Every credential acts for one entity; records remember the
 * entity that created them, so rules that speak of "the owner" (settlement affirm and cancel,
 * platform transfers between entities, acting only on one's own profiles) can hold. Records with
 * no owner belong to the primary entity: the default credential's, which owns the default profile.
 */
export const PRIMARY_ENTITY = 'primary';

/** The owner of a record that may predate owners (absent = primary). */
export function ownerOf(record: { readonly owner?: string | undefined }): string {
  return record.owner ?? PRIMARY_ENTITY;
}

/** The wire `customer_id` of an entity: the primary one is customer 1; others are fixed by their name. */
export function customerIdOf(ids: IdSource, owner: string): string {
  return owner === PRIMARY_ENTITY ? ids.derived('customer', 1) : ids.derived('customer', (hashLabel(owner) >>> 0) + 2);
}
