/**
 * A config entry without a name runs under its plugin's name (the definition's, for a plugin given by
 * path): its allocation and holdings are matched by that name, so they bite. They were looked up under
 * the path as written, which no strategy is called, and an allocation then let every buy through.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Decision } from '../core/index.js';
import { buyOnce, closeRigJournals, liveRunRig } from '../../test/support/live-run-rig.js';

afterEach(closeRigJournals);

describe("an unnamed config entry's allocation and holdings", () => {
  it('are matched by the name its strategy runs under: a 100 USD buy over an allocation of 50 is denied ALLOCATION', async () => {
    const s = liveRunRig({
      strategy: buyOnce,
      refPrefix: 'nm',
      config: { strategies: [{ plugin: './plugins/buy-once.ts', allocation: '50' }] },
    });
    const decisions: Decision[] = [];
    s.run.kernel.decisions$.subscribe((d) => decisions.push(d));
    await s.run.start([]);
    await s.tick();
    await s.run.engine.drain();
    expect(decisions.map((d) => [d.intent.strategy, d.kind === 'deny' ? d.reason.code : d.kind])).toEqual([['buy-once', 'ALLOCATION']]);
    await s.run.stop('test over');
  });
});
