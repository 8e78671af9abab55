import { describe, expect, it } from 'vitest';
import { renderPanel, renderSummary } from '../../src/cli/panel.js';
import type { RunSummary, RunView } from '../../src/live/run-view.js';

const view: RunView = {
  at: 5_000,
  startedAt: 0,
  environment: 'local',
  venue: 'rest',
  markets: [],
  balances: [],
  openOrders: [],
  decisions: [],
  reports: [],
  counters: {},
  stoppedStrategies: [],
  orphans: [
    { refId: 'gm-4', orderId: 'o-4', market: 'BTCUSD', side: 'BUY', price: '59400', action: 'cancel' },
    { refId: 'gm-5', orderId: 'o-5', market: 'BTCUSD', side: 'BUY', price: '58800', action: 'left-open' },
  ],
};

const summary: RunSummary = {
  durationMs: 60_000,
  intents: 3,
  approved: 3,
  denied: 0,
  denials: {},
  ordersPlaced: 3,
  fills: 0,
  fees: '0',
  openOrdersLeft: 1,
  leftOpen: ['gm-7 (order o-7, BUY BTCUSD @ 59000, OPEN)'],
  orphans: { cancel: 1, 'left-open': 1 },
  unresolved: 0,
  stoppedStrategies: [],
};

describe('panel and summary: orphans and orders left open', () => {
  it('the panel lists each orphan found at start with what was done to it', () => {
    const text = renderPanel(view);
    expect(text).toMatch(/orphans found at start \(run\.orphans\)/);
    expect(text).toMatch(/gm-4\s+o-4\s+BTCUSD\s+BUY\s+59400\s+cancel/);
    expect(text).toMatch(/gm-5\s+o-5\s+BTCUSD\s+BUY\s+58800\s+left-open/);
  });

  it('the panel has no orphan table when there were none', () => {
    expect(renderPanel({ ...view, orphans: [] })).not.toMatch(/orphans/);
  });

  it('the summary names each order left open and counts the orphans by action', () => {
    const text = renderSummary(summary);
    expect(text).toMatch(/left open\s+gm-7 \(order o-7, BUY BTCUSD @ 59000, OPEN\)/);
    expect(text).toMatch(/orphans at start\s+cancel 1, left-open 1/);
  });
});
