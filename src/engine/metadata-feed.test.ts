import { describe, expect, it } from 'vitest';
import { TestClock, flushMicrotasks } from '../clock/index.js';
import { RiskLimitsSchema } from '../risk/index.js';
import { tradingInstruments } from '../platform/instruments.js';
import { AccountStore, MarketStore } from '../state/index.js';
import { OpenOrderBook } from './open-order-book.js';
import { EngineRiskView } from './risk-view.js';
import { MetadataFeed } from './venue-metadata.js';
import { MemoryJournal } from '../exec/memory-journal.js';

function feed(refresh: 'always' | 'after-transfers') {
  const clock = new TestClock(Date.UTC(2025, 0, 1));
  const reads = { limits: 0, markets: 0 };
  const view = new EngineRiskView(
    clock,
    new MarketStore(clock),
    new AccountStore(clock),
    RiskLimitsSchema.parse({}).fee_bps,
    new OpenOrderBook(new MemoryJournal()),
  );
  const f = new MetadataFeed({
    clock,
    view,
    markets: ['BTCUSD'],
    refreshMs: 60_000,
    refresh,
    source: {
      instruments: async () => (reads.markets++, tradingInstruments()),
      transferLimits: async () => (reads.limits++, [{ limitAsset: 'USD', remaining: '1000', periodSeconds: '86400' }]),
    },
  });
  return { clock, reads, f };
}

describe('MetadataFeed refresh', () => {
  it('always: reads the transfer limits every period', async () => {
    const s = feed('always');
    await s.f.start();
    await s.clock.advanceAsync(10 * 60_000, 60_000);
    expect(s.reads.limits).toBe(11);
    s.f.stop();
  });

  it('after-transfers: reads nothing on the period until a transfer, then while its window lasts', async () => {
    const s = feed('after-transfers');
    await s.f.start();
    await s.clock.advanceAsync(10 * 60_000, 60_000);
    expect(s.reads).toEqual({ limits: 1, markets: 1 }); // only the first reads
    s.f.refreshSoon(); // a transfer was reported
    await flushMicrotasks();
    expect(s.reads.limits).toBe(2);
    await s.clock.advanceAsync(60 * 60_000, 60_000);
    expect(s.reads.limits).toBe(62); // every period while the transfer is inside the day's window
    await s.clock.advanceAsync(2 * 86_400_000, 3_600_000);
    const after = s.reads.limits;
    expect(after).toBeLessThanOrEqual(2 + 24 * 60 + 1);
    await s.clock.advanceAsync(86_400_000, 3_600_000);
    expect(s.reads.limits).toBe(after); // idle again once the window has passed
    s.f.stop();
  });
});
