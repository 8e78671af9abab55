import { createApiClient } from '../../src/api/index.js';
import { LiveClock, TestClock } from '../../src/clock/index.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET } from '../../src/config/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { RestVenue } from '../../src/venue/index.js';
import { venueContract } from './venue-contract.js';

venueContract('RestVenue → local sandbox', async () => {
  const clock = new TestClock(Date.UTC(2025, 5, 1));
  const sandbox = await startSandbox({ clock, seed: 7, funding: { USD: '100000' } });
  const api = createApiClient({
    apiUrl: sandbox.apiUrl,
    tokenUrl: sandbox.tokenUrl,
    clientId: LOCAL_CLIENT_ID,
    clientSecret: LOCAL_CLIENT_SECRET,
    localCredential: true,
    clock: new LiveClock(),
  });
  const profile = sandbox.sim.profiles.defaultId;
  return {
    venue: new RestVenue(api, profile),
    advance: async (ms) => clock.advance(ms),
    mid: (m) => sandbox.sim.mid(m),
    newProfile: async (nickname) => (await api.createProfile({ nickname })).id,
    close: async () => {
      await api.close();
      await sandbox.close();
    },
  };
});
