import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestClock } from '../clock/test-clock.js';
import { ConfigSchema } from '../config/schema.js';
import { StateStore } from '../sandbox/state-store.js';
import { SimPlatform } from '../sim/sim.js';
import { archiveLocalWorld, localClockStart, localStatePath, savingVenue } from './local-world.js';

const T0 = Date.UTC(2026, 0, 5, 12);

describe('the local world of tradeloop run', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-local-world-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the sandbox state beside the journal unless local.state says otherwise', () => {
    expect(localStatePath(ConfigSchema.parse({}))).toBe(join('.tradeloop', 'sandbox-state.sqlite'));
    expect(localStatePath(ConfigSchema.parse({ journal: { path: 'runs/bot-a.sqlite' } }))).toBe(join('runs', 'bot-a.sandbox-state.sqlite'));
    expect(localStatePath(ConfigSchema.parse({ local: { state: 'w.json' } }))).toBe('w.json');
    expect(localStatePath(ConfigSchema.parse({ journal: { path: ':memory:' } }))).toBeUndefined();
  });

  it('starts an accelerated clock at the saved world time when that is ahead of the wall clock', () => {
    const config = ConfigSchema.parse({ journal: { path: join(dir, 'journal.sqlite') } });
    expect(localClockStart(config, T0)).toBe(T0);
    const store = new StateStore(localStatePath(config)!);
    store.persist(new SimPlatform({ clock: new TestClock(T0 + 60_000), seed: 1, instanceId: 'ahead' }).snapshot());
    store.close();
    expect(localClockStart(config, T0)).toBe(T0 + 60_000);
    expect(localClockStart(config, T0 + 90_000)).toBe(T0 + 90_000);
  });

  it('--fresh is refused with an external sandbox (api.base_url), which keeps its own state', () => {
    const config = ConfigSchema.parse({ api: { base_url: 'http://127.0.0.1:9/v2' } });
    expect(() => archiveLocalWorld(config, T0)).toThrow(/--fresh.*api\.base_url.*restart it with a new --state file/);
    expect(archiveLocalWorld(ConfigSchema.parse({ journal: { path: join(dir, 'none.sqlite') } }), T0)).toBeUndefined();
  });

  it('saves after every venue call, failed ones too, and withholds the answer when the save fails', async () => {
    let saves = 0;
    let ok = true;
    const venue = {
      place: async (n: number): Promise<number> => n + 1,
      refuse: async (): Promise<never> => Promise.reject(new Error('refused')),
      now: (): number => 7,
      name: 'sim',
    };
    const wrapped = savingVenue(venue, () => (saves++, ok));
    expect([await wrapped.place(1), wrapped.now(), wrapped.name]).toEqual([2, 7, 'sim']);
    await expect(wrapped.refuse()).rejects.toThrow('refused');
    expect(saves).toBe(3);
    ok = false;
    await expect(wrapped.place(1)).rejects.toThrow(/could not save its world/);
  });
});
