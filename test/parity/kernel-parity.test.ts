/**
 * One kernel, three venues: the parity script (parity-script.ts) run through the kernel on point
 * replay (a backtest), on the simulated platform (SimVenue) and on RestVenue against the local
 * sandbox over loopback, with a second strategy on the market (each sells only its own position), must give the same decisions (intent kind, side, outcome or denial code), the
 * same reports and open orders seen by the strategy, and leave the same orders at the venue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pointReplayLane, sandboxLane, simLane, type Lane } from './parity-lanes.js';
import { collectDecisions, intentsOf, PARITY_SCRIPT, reportTrace, type DecisionTrace } from './parity-script.js';

const open: Lane[] = [];
afterEach(async () => {
  for (const lane of open.splice(0)) await lane.close();
});

interface LaneRun {
  readonly decisions: DecisionTrace[];
  readonly reports: string[];
  readonly openSeen: number[];
  /** Our orders still open at the end, by side and price. */
  readonly openAtEnd: string[];
  /** What the venue holds for each intent of the script, by its place in the script. */
  readonly atVenue: string[];
}

/** Asks the venue, by ref_id, for the order or transfer each intent of the script made there. */
async function venueTruth(lane: Lane): Promise<string[]> {
  const out: string[] = [];
  for (let n = 1; n <= intentsOf(lane.probe.seen); n++) {
    const ref = `${lane.refPrefix}-${n}`;
    const order = await lane.venue.findOrderByRef(ref);
    if (order) out.push(`#${n} ${order.side} ${order.status}`);
    const transfer = await lane.venue.findTransferByRef(ref);
    if (transfer) out.push(`#${n} transfer ${transfer.status}`);
  }
  return out;
}

/** Runs the whole script on a lane: arm, then one price per step, halting where the script says. */
async function runScript(make: () => Promise<Lane>): Promise<LaneRun> {
  const lane = await make();
  open.push(lane);
  const decisions = collectDecisions(lane.kernel.decisions$);
  lane.probe.armed = true;
  for (const step of PARITY_SCRIPT) {
    if (step.haltFirst) {
      await lane.halt('parity script');
      expect(lane.kernel.openOrders.count(), `${lane.name}: orders left open after the halt`).toBe(0);
    }
    await lane.next();
    expect(decisions, `${lane.name}: decisions missing on "${step.name}"`).toHaveLength(intentsOf(lane.probe.seen));
  }
  const openAtEnd = lane.kernel.openOrders.list().map((o) => `${o.side} ${o.price?.toFixed(2)}`);
  return { decisions, reports: reportTrace(lane.probe.reports), openSeen: lane.probe.openSeen, openAtEnd, atVenue: await venueTruth(lane) };
}

const EXPECTED: DecisionTrace[] = [
  { kind: 'place-order', side: 'BUY', outcome: 'PRECISION' },
  { kind: 'place-order', side: 'BUY', outcome: 'PRECISION' },
  { kind: 'place-order', side: 'BUY', outcome: 'approve' },
  { kind: 'place-order', side: 'BUY', outcome: 'approve' },
  { kind: 'place-order', side: 'BUY', outcome: 'MAX_OPEN_ORDERS' },
  { kind: 'place-order', side: 'BUY', outcome: 'MAX_OPEN_ORDERS' },
  { kind: 'execute-quote', side: 'BUY', outcome: 'QUOTE_EXPIRED' },
  { kind: 'transfer', outcome: 'approve' },
  { kind: 'transfer', outcome: 'TRANSFER_LIMIT' },
  { kind: 'place-order', side: 'BUY', outcome: 'approve' },
  // another strategy trades BTCUSD: the script may sell only the 0.05 its buy made, not the 1 BTC no strategy holds
  { kind: 'place-order', side: 'SELL', outcome: 'OWN_POSITION' },
  { kind: 'place-order', side: 'BUY', outcome: 'HALTED' },
  { kind: 'transfer', outcome: 'HALTED' },
  { kind: 'place-order', side: 'SELL', outcome: 'approve' },
  { kind: 'place-order', side: 'SELL', outcome: 'approve' },
];

describe('kernel parity: point replay, SimVenue and RestVenue → sandbox', () => {
  it('gives the same decisions, denial codes and reports for the parity script on every venue', { timeout: 60_000 }, async () => {
    const point = await runScript(pointReplayLane);
    expect(point.decisions).toEqual(EXPECTED);
    const sim = await runScript(simLane);
    const rest = await runScript(sandboxLane);
    expect(sim.decisions).toEqual(point.decisions);
    expect(rest.decisions).toEqual(point.decisions);
    expect(sim.reports).toEqual(point.reports);
    expect(rest.reports).toEqual(point.reports);
    // what ctx.account.openOrders() listed at each price: an order counts from approval until closed
    expect(point.openSeen).toEqual([0, 0, 0, 2, 2, 2, 2, 2, 2, 0, 0, 0, 1, 1]);
    expect(sim.openSeen).toEqual(point.openSeen);
    expect(rest.openSeen).toEqual(point.openSeen);
    // the two resting buys were cancelled by the halt; only the limit sell made while halted rests
    expect(point.openAtEnd).toEqual(['SELL 66000.00']);
    expect(sim.openAtEnd).toEqual(point.openAtEnd);
    expect(rest.openAtEnd).toEqual(point.openAtEnd);
    // each venue saw only what was approved: two resting buys (cancelled), the transfer within the limits, the market buy, the two sells
    expect(point.atVenue).toEqual([
      '#3 BUY CANCELLED',
      '#4 BUY CANCELLED',
      '#8 transfer COMPLETED',
      '#10 BUY FILLED',
      '#14 SELL OPEN',
      '#15 SELL FILLED',
    ]);
    expect(sim.atVenue).toEqual(point.atVenue);
    expect(rest.atVenue).toEqual(point.atVenue);
  });
});
