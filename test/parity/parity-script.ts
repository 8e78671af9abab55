/**
 * The scripted strategy of the kernel parity suite: on each live BTCUSD price after the driver arms it,
 * it makes the next intent of a fixed script (an off-tick price, an over-precise amount, resting buys
 * beyond `max_open_orders`, a quote execution with no live quote, a transfer within the limits and one over them, then a
 * buy, a transfer, a limit sell and a market sell after the driver has halted trading). Every venue
 * sees the same intents in the same order, so the decisions the kernel takes on them must be the same.
 */
import type { Observable } from 'rxjs';
import { z } from 'zod';
import type { Decision, ExecReport } from '../../src/core/index.js';
import { defineStrategy, type IntentDraft } from '../../src/strategy/index.js';

/** The risk section every lane runs with: two open orders at most, a band wide enough for the resting buys. */
export const PARITY_RISK = {
  max_open_orders: 2,
  price_band_bps: 2_000,
  max_intents_per_minute: 600,
  max_order_notional: '100000',
  stale_after_ms: 120_000,
} as const;

/** Every lane's account: enough USD for a transfer over the 1 000 000 USD per-transaction limit, and BTC to sell. */
export const PARITY_FUNDING = { USD: '2000000', BTC: '1' } as const;

/** The replayed BTCUSD price (flat, so every venue values the intents alike). */
export const PARITY_PRICE = 60_000;

/** Price points the venues replay: one a minute, enough for the whole script. */
export const PARITY_POINTS = 40;
export const PARITY_STEP_MS = 60_000;

/** The profiles a lane's transfers move between (each venue names its own). */
export interface ProfileParams {
  readonly from: string;
  readonly to: string;
}

const rest = (price: string): IntentDraft => ({
  kind: 'place-order',
  market: 'BTCUSD',
  side: 'BUY',
  type: 'LIMIT',
  baseAmount: '0.001',
  price,
  timeInForce: 'GTC',
});
const overLimit = (p: ProfileParams): IntentDraft => ({
  kind: 'transfer',
  asset: 'USD',
  amount: '1500000',
  fromProfileId: p.from,
  toProfileId: p.to,
});

/** One step of the script: what the strategy returns on its n-th armed price, and whether trading is halted first. */
export interface ParityStep {
  readonly name: string;
  readonly haltFirst?: boolean;
  readonly intents: (p: ProfileParams) => readonly IntentDraft[];
}

export const PARITY_SCRIPT: readonly ParityStep[] = [
  {
    name: 'off-tick price',
    intents: () => [
      { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.001', price: '59999.877', timeInForce: 'GTC' },
    ],
  },
  {
    name: 'over-precise base amount',
    intents: () => [
      {
        kind: 'place-order',
        market: 'BTCUSD',
        side: 'BUY',
        type: 'LIMIT',
        baseAmount: '0.010000001',
        price: '54000.00',
        timeInForce: 'GTC',
      },
    ],
  },
  // all on one price, before any poll can have listed the first: the gate counts approvals itself
  { name: 'three resting buys at once, one beyond max_open_orders', intents: () => [rest('54000.00'), rest('54100.00'), rest('54200.00')] },
  { name: 'a resting buy a minute later, once the polls have listed the two', intents: () => [rest('54300.00')] },
  {
    name: 'quote execution with no live quote',
    intents: () => [{ kind: 'execute-quote', market: 'BTCUSD', side: 'BUY', quoteAmount: '100.00' }],
  },
  {
    name: 'transfer within the limits',
    intents: (p) => [{ kind: 'transfer', asset: 'USD', amount: '250.00', fromProfileId: p.from, toProfileId: p.to }],
  },
  { name: 'transfer over the per-transaction limit', intents: (p) => [overLimit(p)] },
  {
    name: 'a market buy: a position of its own',
    intents: () => [{ kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '3000.00' }],
  },
  // the 1 BTC funded is no strategy's, and the sibling strategy trades BTCUSD too: only its own 0.05 is the script's to sell
  {
    name: 'a sell of more than its own position',
    intents: () => [{ kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '0.5' }],
  },
  { name: 'buy while halted', haltFirst: true, intents: () => [rest('54000.00')] },
  { name: 'transfer while halted', intents: (p) => [overLimit(p)] },
  {
    name: 'sell of a held amount while halted',
    intents: () => [
      { kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '0.01', price: '66000.00', timeInForce: 'GTC' },
    ],
  },
  {
    name: 'market sell of a held amount while halted',
    intents: () => [{ kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '0.02' }],
  },
  { name: 'a last price, for the market sell to fill', intents: () => [] },
];

/** How many intents the first `steps` steps of the script make. */
export function intentsOf(steps: number): number {
  const none = { from: '', to: '' };
  return PARITY_SCRIPT.slice(0, steps).reduce((n, s) => n + s.intents(none).length, 0);
}

/** Shared between the driver and the strategy instance of one lane. */
export interface ScriptProbe {
  /** The strategy ignores prices until the driver has subscribed to the kernel and arms it. */
  armed: boolean;
  /** Armed prices seen so far (the index of the next step). */
  seen: number;
  /** What the strategy heard about its intents, in order. */
  readonly reports: ExecReport[];
  /** How many open orders `ctx.account.openOrders()` listed at each armed price. */
  readonly openSeen: number[];
  /** The profiles of the lane's venue, set by the driver before arming. */
  profiles: ProfileParams;
}

export function newProbe(): ScriptProbe {
  return { armed: false, seen: 0, reports: [], openSeen: [], profiles: { from: '', to: '' } };
}

/** A second strategy on BTCUSD that makes no intent: the market is shared, so each strategy sells only its own position. */
export const paritySibling = defineStrategy({
  name: 'parity-sibling',
  description: 'trades BTCUSD beside the parity script and makes no intent',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => ({}),
});

/** The parity strategy bound to one lane's probe. */
export function parityStrategy(probe: ScriptProbe) {
  return defineStrategy({
    name: 'parity-script',
    description: 'makes the next intent of the parity script on each price once armed',
    params: z.object({}),
    markets: ['BTCUSD'],
    create: () => ({
      onEvent: (e, ctx) => {
        if (e.kind !== 'price' || ctx.warmingUp || !probe.armed) return undefined;
        const step = PARITY_SCRIPT[probe.seen];
        if (step === undefined) return undefined;
        probe.seen++;
        probe.openSeen.push(ctx.account.openOrders().length);
        return step.intents(probe.profiles);
      },
      onReport: (r) => {
        probe.reports.push(r);
      },
    }),
  });
}

/** A decision as the suite compares it: what was asked and what the gate answered. */
export interface DecisionTrace {
  readonly kind: string;
  readonly side?: string;
  readonly outcome: string;
}

export function traceOf(d: Decision): DecisionTrace {
  const i = d.intent;
  const outcome = d.kind === 'approve' ? 'approve' : d.reason.code;
  return 'side' in i ? { kind: i.kind, side: i.side, outcome } : { kind: i.kind, outcome };
}

/** Collects the decisions of a kernel (subscribe before arming the script). */
export function collectDecisions(decisions$: Observable<Decision>): DecisionTrace[] {
  const out: DecisionTrace[] = [];
  decisions$.subscribe((d) => out.push(traceOf(d)));
  return out;
}

/**
 * The reports a strategy heard, without what differs by venue (ids, times, ref prefixes): the intent's
 * place in the script, the report kind and, for refusals, the code. The cancels a halt sends go out
 * together, so a run of consecutive `cancelled` reports is listed in script order, not arrival order.
 */
export function reportTrace(reports: readonly ExecReport[]): string[] {
  const seq = (refId: string): string => refId.replace(/^.*-/, '#');
  const lines = reports.map((r) => {
    if (r.kind === 'denied') return `${seq(r.refId)} denied ${r.reason.code}`;
    if (r.kind === 'rejected' || r.kind === 'failed') return `${seq(r.refId)} ${r.kind} ${r.code}`;
    return `${seq(r.refId)} ${r.kind}`;
  });
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    let j = i;
    while (j < lines.length && lines[j]!.endsWith(' cancelled')) j++;
    if (j === i) out.push(lines[i++]!);
    else {
      out.push(...lines.slice(i, j).sort((a, b) => Number(a.slice(1).split(' ')[0]) - Number(b.slice(1).split(' ')[0])));
      i = j;
    }
  }
  return out;
}
