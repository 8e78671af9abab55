import { describe, expect, it } from 'vitest';
import { pickByRefId, refIdMismatch } from './ref-id.js';

describe('ref_id matching', () => {
  const existing = { id: 'o-1', ref_id: 'r-1', profile_id: '7bcff3e1-4461-45a9-97be-f635f150a346', market: 'BTCUSD', side: 'BUY', base_amount: '1.50', price: '100' };

  it('accepts the record created by the same request (decimals compared by value)', () => {
    expect(refIdMismatch({ ref_id: 'r-1', market: 'BTCUSD', side: 'BUY', base_amount: '1.5', price: '100.00' }, existing, { profile_id: existing.profile_id })).toBeUndefined();
  });

  it('treats the default profile alias in the path as the record own profile', () => {
    expect(refIdMismatch({ ref_id: 'r-1', market: 'BTCUSD' }, existing, { profile_id: 'default' })).toBeUndefined();
    expect(pickByRefId([existing], 'r-1', { profile_id: 'default' })).toBe(existing);
  });

  it('names the first field that differs, and another profile still differs', () => {
    expect(refIdMismatch({ ref_id: 'r-1', side: 'SELL' }, existing)).toBe('side');
    expect(refIdMismatch({ ref_id: 'r-1' }, existing, { profile_id: '11111111-2222-4333-8444-555555555555' })).toBe('profile_id');
    expect(pickByRefId([existing], 'r-1', { profile_id: '11111111-2222-4333-8444-555555555555' })).toBeUndefined();
  });
});

describe('ref_id matching of nested records', () => {
  const identity = { id: 'i-1', ref_id: 'person-1', person_details: { first_name: 'Ada', last_name: 'Lovelace', address: { country: 'USA', city: 'Boston' } } };

  it('accepts the same nested body', () => {
    expect(refIdMismatch({ ref_id: 'person-1', person_details: { first_name: 'Ada', address: { city: 'Boston' } } }, identity)).toBeUndefined();
  });

  it('names a nested field that differs, so a reused ref_id is never taken for our own record', () => {
    expect(refIdMismatch({ ref_id: 'person-1', person_details: { first_name: 'Grace' } }, identity)).toBe('person_details.first_name');
    expect(refIdMismatch({ ref_id: 'person-1', person_details: { address: { city: 'Paris' } } }, identity)).toBe('person_details.address.city');
  });
});
