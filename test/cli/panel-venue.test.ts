import { describe, expect, it } from 'vitest';
import { renderPanel } from '../../src/cli/panel.js';
import { venueUnreachableSince, type RunView } from '../../src/live/run-view.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

function view(extra: Partial<RunView>): RunView {
  return {
    at: T0 + 95_000,
    startedAt: T0,
    environment: 'local',
    venue: 'rest',
    markets: [{ market: 'BTCUSD', mid: 61234.5, stale: true }],
    balances: [],
    openOrders: [],
    decisions: [],
    reports: [],
    counters: {},
    stoppedStrategies: [],
    orphans: [],
    ...extra,
  };
}

describe('the panel during a venue outage', () => {
  it('shows one line naming since when the venue is unreachable, and none while it answers', () => {
    const text = renderPanel(view({ venueUnreachableSince: T0 + 30_000 }));
    const lines = text.split('\n').filter((l) => l.includes('UNREACHABLE'));
    expect(lines).toEqual(['VENUE UNREACHABLE since 12:00:30 (1m05s): requests fail fast, one probe a second; market data goes stale']);
    expect(text).toMatch(/BTCUSD\s+61234.50\s+STALE/);
    expect(renderPanel(view({}))).not.toMatch(/UNREACHABLE/);
  });

  it('takes the outage from stream health: the earliest unreachableSince of any stream', () => {
    const h = { lastSuccessAt: undefined, consecutiveErrors: 3, lastError: 'VENUE_UNREACHABLE: …', polls: 3 };
    expect(
      venueUnreachableSince([
        { stream: 'prices', ...h, unreachableSince: T0 + 2 },
        { stream: 'balances', ...h, unreachableSince: T0 + 1 },
        { stream: 'fills', ...h },
      ]),
    ).toBe(T0 + 1);
    expect(venueUnreachableSince([{ stream: 'prices', ...h }])).toBeUndefined();
  });
});

describe('the panel while the shared budget store does not answer', () => {
  it('shows one line naming the store, since when, and the share this bot uses', () => {
    const text = renderPanel(view({ budgetStoreUnreachable: { since: T0 + 35_000, store: 'redis://127.0.0.1:6390', bots: 3 } }));
    expect(text.split('\n').filter((l) => l.includes('BUDGET STORE'))).toEqual([
      'BUDGET STORE UNREACHABLE since 12:00:35 (1m00s): redis://127.0.0.1:6390 does not answer; this bot uses its share, 1/3 of the request budget',
    ]);
    expect(renderPanel(view({}))).not.toMatch(/BUDGET STORE/);
  });
});
