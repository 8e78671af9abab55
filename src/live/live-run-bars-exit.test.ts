/**
 * A live run of a bar strategy lets the process exit once it has stopped: its bar timer (armed at the
 * next bar's end, an hour away for 1h bars) is cancelled by the shutdown and never armed again. It was
 * left armed, so `tradeloop run` printed its summary and stayed up until the next hour, re-arming there.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../strategy/index.js';
import { closeRigJournals, liveRunRig } from '../../test/support/live-run-rig.js';

afterEach(closeRigJournals);

const hourly = defineStrategy({
  name: 'hourly',
  description: 'takes 1h bars of BTCUSD, never trades',
  params: z.object({}),
  markets: ['BTCUSD'],
  bars: () => [{ market: 'BTCUSD', timeframe: '1h' }],
  create: () => ({ onEvent: () => undefined, onBar: () => undefined }),
});

describe("a bar strategy's live run", () => {
  it('leaves no timer behind once stopped, and a price after the stop arms none', async () => {
    const s = liveRunRig({ strategy: hourly, refPrefix: 'bx' });
    await s.run.start([]);
    await s.tick();
    await s.run.engine.drain();
    const armed = s.clock.pending();
    expect(armed).toBeGreaterThan(0);
    await s.run.stop('test over');
    expect(s.clock.pending()).toBe(0);
    // an input that still reaches the engine after the stop (a late event) arms no bar timer
    s.run.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
    await s.run.engine.drain();
    expect(s.clock.pending()).toBe(0);
  });
});
