import { TestClock } from '../../src/clock/index.js';
import { SimPlatform } from '../../src/sim/sim.js';
import { SimVenue } from '../../src/venue/index.js';
import { venueContract } from './venue-contract.js';

venueContract('SimVenue', async () => {
  const clock = new TestClock(Date.UTC(2025, 5, 1));
  const sim = new SimPlatform({ clock, seed: 7, funding: { USD: '100000' } });
  return {
    venue: new SimVenue(sim),
    advance: async (ms) => clock.advance(ms),
    mid: (m) => sim.mid(m),
    newProfile: async (nickname) => sim.profiles.create(nickname, undefined, sim.now()).id,
    close: async () => undefined,
  };
});
