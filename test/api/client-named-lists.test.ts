import { afterEach, describe, expect, it } from 'vitest';
import { MalformedResponseError, allScopes } from '../../src/api/index.js';
import { FakePlatform } from '../support/fake-platform.js';
import { clientFor } from './helpers.js';

let fake: FakePlatform;
afterEach(async () => {
  await fake?.close();
});

describe('lists of the operations beyond the platform spec', () => {
  it('read their items under the resource key: an omitted list is [], anything but an array of objects is malformed', async () => {
    fake = await FakePlatform.start();
    fake.sequence('GET', '/events', [{ json: {} }, { json: { events: [{ id: 'e-1', type: 'order.created' }] } }, { json: { events: 'none' } }]);
    fake.sequence('GET', '/transfer/crypto-destination-addresses', [{ json: { addresses: [7] } }]);
    const client = clientFor(fake, { scopes: allScopes() });
    expect((await client.listEvents()).events).toEqual([]);
    expect((await client.listEvents()).events.map((e) => e.id)).toEqual(['e-1']);
    await expect(client.listEvents()).rejects.toBeInstanceOf(MalformedResponseError);
    await expect(client.listCryptoDestinationAddresses()).rejects.toThrow(/addresses holds a non-object/);
    await client.close();
  });
});
