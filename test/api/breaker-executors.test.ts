import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import type { ExecReport, Intent } from '../../src/core/index.js';
import { Journal, OrderExecutor } from '../../src/exec/index.js';
import { RestVenue, VENUE_UNREACHABLE, VenueRejectedError, type Venue } from '../../src/venue/index.js';
import { FakePlatform } from '../support/fake-platform.js';
import { clientFor, memoryLogger } from './helpers.js';

let fake: FakePlatform | undefined;
const journals: Journal[] = [];
afterEach(async () => {
  journals.splice(0).forEach((j) => j.close());
  await fake?.close();
  fake = undefined;
});

/** A loopback port nobody listens at (bound, then released): every connection is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A write the open breaker refuses never left the client: the order executor must close it as not
 * placed (REJECTED with VENUE_UNREACHABLE, funds released), never leave it an unknown outcome that
 * holds the strategy until the venue is back.
 */
describe('writes refused by the open breaker, through RestVenue and the order executor', () => {
  it('close the intent as rejected VENUE_UNREACHABLE, not unresolved', async () => {
    fake = await FakePlatform.start();
    const api = clientFor(fake, { apiUrl: `http://127.0.0.1:${await closedPort()}/v2`, maxRetries: 0, breakerFailures: 2 });
    const venue = new RestVenue(api, 'p1');
    await expect(venue.balances()).rejects.toThrow(/ECONNREFUSED/);
    await expect(venue.balances()).rejects.toMatchObject({ code: VENUE_UNREACHABLE });
    expect(api.venueReachability().unreachableSince).toBeDefined();

    const clock = new TestClock(1_700_000_000_000);
    const journal = new Journal(join(mkdtempSync(join(tmpdir(), 'tradeloop-breaker-')), 'journal.sqlite'));
    journals.push(journal);
    const reports: ExecReport[] = [];
    const orders = new OrderExecutor({ venue, journal, clock, emit: (r) => reports.push(r) });
    const intent: Intent = { kind: 'place-order', intentId: 'bk-1', strategy: 't', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '100' };
    journal.recordDecision({ kind: 'approve', intent, at: clock.now() });
    await orders.place(intent);
    expect(journal.get('bk-1')).toMatchObject({ state: 'done', status: 'REJECTED' });
    expect(reports).toEqual([expect.objectContaining({ kind: 'rejected', refId: 'bk-1', code: VENUE_UNREACHABLE })]);
    await api.close();
  });

  it('an unknown outcome looked up every follow cycle during an outage is reported unresolved once, each failure journaled', async () => {
    const clock = new TestClock(1_700_000_000_000);
    const journal = new Journal(join(mkdtempSync(join(tmpdir(), 'tradeloop-breaker-')), 'journal.sqlite'));
    journals.push(journal);
    const reports: ExecReport[] = [];
    const down = new VenueRejectedError(VENUE_UNREACHABLE, 'ListOrders not sent: venue unreachable since 2023-11-14T22:13:20.000Z');
    const venue = { findOrderByRef: () => Promise.reject(down) } as unknown as Venue;
    const orders = new OrderExecutor({ venue, journal, clock, emit: (r) => reports.push(r) });
    const intent: Intent = { kind: 'place-order', intentId: 'bk-2', strategy: 't', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '100' };
    journal.recordDecision({ kind: 'approve', intent, at: clock.now() });
    journal.markSent('bk-2', clock.now(), {});
    for (let cycle = 0; cycle < 20; cycle++) {
      clock.advance(250);
      await orders.resolve('bk-2');
    }
    expect(reports.map((r) => r.kind)).toEqual(['unresolved']);
    expect(journal.get('bk-2')?.state).toBe('unresolved');
    expect(journal.events('bk-2').filter((e) => e.type === 'lookup-failed')).toHaveLength(20);
  });

  it('an order status read the open breaker refused is a debug line, any other failure a warning', async () => {
    const clock = new TestClock(1_700_000_000_000);
    const journal = new Journal(join(mkdtempSync(join(tmpdir(), 'tradeloop-breaker-')), 'journal.sqlite'));
    journals.push(journal);
    const { logger, lines } = memoryLogger(undefined, 'info');
    let failure: Error = new VenueRejectedError(VENUE_UNREACHABLE, 'GetOrder not sent: venue unreachable since 2023-11-14T22:13:20.000Z');
    const venue = { getOrder: () => Promise.reject(failure) } as unknown as Venue;
    const orders = new OrderExecutor({ venue, journal, clock, log: logger, emit: () => undefined });
    const intent: Intent = { kind: 'place-order', intentId: 'bk-3', strategy: 't', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '100' };
    journal.recordDecision({ kind: 'approve', intent, at: clock.now() });
    journal.update('bk-3', clock.now(), 'open', { venueId: 'o-3', status: 'OPEN' }, { type: 'response', data: {} });
    const row = journal.get('bk-3')!;
    for (let cycle = 0; cycle < 20; cycle++) await orders.refresh(row);
    expect(lines()).toBe('');
    failure = new Error('GetOrder: network failure (ECONNRESET), outcome unknown');
    await orders.refresh(row);
    expect(lines()).toMatch(/"level":40.*order status poll failed: GetOrder: network failure/);
  });
});
