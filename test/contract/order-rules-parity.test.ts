/**
 * One set of order rules: the same bad order is refused identically by the sandbox's exchange (over
 * HTTP, through RestVenue), by SimVenue, by point replay (PointVenue) and by the risk gate, with the
 * same field and the same words. Before, a backtest accepted and filled BTCUSD limit buys at
 * 59999.877 that the platform answers 400 exceed-precision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { LiveClock, TestClock } from '../../src/clock/index.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET } from '../../src/config/index.js';
import { D, roundBase, roundPrice, type Decision, type Instrument, type Intent, type OrderTerms } from '../../src/core/index.js';
import { RiskGate, RiskLimitsSchema, type RiskView } from '../../src/risk/index.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { PointMarket } from '../../src/fills/point/market.js';
import { SimPlatform } from '../../src/sim/sim.js';
import { MarketStore } from '../../src/state/index.js';
import { PointVenue } from '../../src/fills/point/venue.js';
import { RestVenue, SimVenue, VenueRejectedError, type PlaceOrderRequest, type Venue } from '../../src/venue/index.js';

const T0 = Date.UTC(2025, 5, 1);

/** A refusal in words every path shares: the wire field, the kind of problem, and what to do. */
interface Refusal {
  readonly field: string;
  readonly problem: 'invalid' | 'precision';
  readonly reason: string;
}

const WIRE_FIELD: Readonly<Record<string, string>> = {
  baseAmount: 'base_amount',
  quoteAmount: 'quote_amount',
  price: 'price',
  stopPrice: 'stop_price',
  timeInForce: 'time_in_force',
  expiresAt: 'expiration_date',
  side: 'side',
  type: 'type',
};

interface BadOrder extends Omit<OrderTerms, 'expiresAt'> {
  readonly name: string;
  readonly expected: Refusal;
}

const BAD_ORDERS: readonly BadOrder[] = [
  {
    name: 'a BTCUSD limit buy at 59999.877 (tick 0.01)',
    market: 'BTCUSD',
    side: 'BUY',
    type: 'LIMIT',
    baseAmount: '0.01',
    price: '59999.877',
    expected: {
      field: 'price',
      problem: 'precision',
      reason: '59999.877 has more precision than allowed: use at most 2 decimal places (a multiple of 0.01)',
    },
  },
  {
    name: 'a BTCUSD limit sell of 0.000100001 BTC (9 decimals)',
    market: 'BTCUSD',
    side: 'SELL',
    type: 'LIMIT',
    baseAmount: '0.000100001',
    price: '70000',
    expected: {
      field: 'base_amount',
      problem: 'precision',
      reason: '0.000100001 has more precision than allowed: use at most 8 decimal places',
    },
  },
  {
    name: 'a MATICUSD limit buy at 0.70125 (tick 0.0001)',
    market: 'MATICUSD',
    side: 'BUY',
    type: 'LIMIT',
    baseAmount: '10',
    price: '0.70125',
    expected: {
      field: 'price',
      problem: 'precision',
      reason: '0.70125 has more precision than allowed: use at most 4 decimal places (a multiple of 0.0001)',
    },
  },
  {
    name: 'a stop-loss sell off the tick',
    market: 'BTCUSD',
    side: 'SELL',
    type: 'STOP_MARKET',
    baseAmount: '0.01',
    stopPrice: '50000.005',
    expected: {
      field: 'stop_price',
      problem: 'precision',
      reason: '50000.005 has more precision than allowed: use at most 2 decimal places (a multiple of 0.01)',
    },
  },
  {
    name: 'a market buy good till cancelled',
    market: 'BTCUSD',
    side: 'BUY',
    type: 'MARKET',
    quoteAmount: '100.00',
    timeInForce: 'GTC',
    expected: { field: 'time_in_force', problem: 'invalid', reason: '"GTC" is not valid for MARKET orders: use one of IOC' },
  },
  {
    name: 'a stop buy',
    market: 'BTCUSD',
    side: 'BUY',
    type: 'STOP_LIMIT',
    baseAmount: '0.01',
    price: '70000',
    stopPrice: '69000',
    expected: { field: 'side', problem: 'invalid', reason: 'STOP_LIMIT orders are sell-only (stop loss): use SELL' },
  },
];

/** A venue's refusal in shared words (the field from the message, which every path starts with). */
function venueRefusal(e: unknown): Refusal {
  expect(e).toBeInstanceOf(VenueRejectedError);
  const err = e as VenueRejectedError;
  const detail = /(?:^|\s)(side|type|time_in_force|base_amount|quote_amount|stop_price|price|expiration_date): (.*)$/.exec(err.message);
  if (detail === null) throw new Error(`no field in ${err.message}`);
  return { field: detail[1]!, problem: err.code === 'EXCEED_PRECISION' ? 'precision' : 'invalid', reason: detail[2]! };
}

async function refusedBy(venue: Venue, o: BadOrder, refId: string): Promise<Refusal> {
  const req: PlaceOrderRequest = { refId, market: o.market, side: o.side, type: o.type, ...pick(o) };
  return venue.placeOrder(req).then((placed) => {
    throw new Error(`${venue.name} accepted ${o.name}: ${placed.status}`);
  }, venueRefusal);
}

function pick(o: Omit<BadOrder, 'name' | 'expected'>): Partial<PlaceOrderRequest> {
  const { baseAmount, quoteAmount, price, stopPrice, timeInForce } = o;
  return {
    ...(baseAmount && { baseAmount }),
    ...(quoteAmount && { quoteAmount }),
    ...(price && { price }),
    ...(stopPrice && { stopPrice }),
    ...(timeInForce && { timeInForce }),
  };
}

/** The risk gate's decision on an order; `instruments` is what the view knows (empty: the catalog fallback). */
function gateDecides(o: Omit<BadOrder, 'name' | 'expected'>, instruments: readonly Instrument[]): Decision {
  const clock = new TestClock(T0);
  const store = new MarketStore(clock);
  store.apply({ kind: 'book', market: o.market, at: T0, bids: [{ price: 60_000, amount: 5 }], asks: [{ price: 60_001, amount: 5 }] });
  const known = new Map(instruments.map((i) => [i.market, i]));
  const view: RiskView = {
    now: () => clock.now(),
    market: (m) => store.snapshot(m),
    available: () => new D('1000000'),
    total: () => new D('1000000'),
    openOrderCount: () => 0,
    instrument: (m) => known.get(m),
    transferRemaining: () => undefined,
  };
  const gate = new RiskGate(RiskLimitsSchema.parse({ max_order_notional: '10000000' }), view);
  const intent: Intent = { kind: 'place-order', intentId: 'i-1', strategy: 's', market: o.market, side: o.side, type: o.type, ...pick(o) };
  return gate.decide(intent);
}

/** The risk gate's denial in shared words. */
function deniedByGate(o: BadOrder, instruments: readonly Instrument[]): Refusal {
  const d = gateDecides(o, instruments);
  if (d.kind !== 'deny') throw new Error(`the risk gate approved ${o.name}`);
  const field = WIRE_FIELD[String(d.reason.details.field)] ?? '?';
  const prefix = `${String(d.reason.details.field)}: `;
  expect(d.reason.message.startsWith(prefix)).toBe(true);
  return { field, problem: d.reason.code === 'PRECISION' ? 'precision' : 'invalid', reason: d.reason.message.slice(prefix.length) };
}

describe('one set of order rules: sandbox, simulated venue, point replay and risk gate refuse alike', () => {
  let sandbox: SandboxHandle;
  let api: ApiClient;
  let rest: RestVenue;
  let sim: SimVenue;
  let point: PointVenue;
  let seq = 0;

  beforeAll(async () => {
    const clock = new TestClock(T0);
    sandbox = await startSandbox({ clock, seed: 7, funding: { USD: '100000', BTC: '1' } });
    api = createApiClient({
      apiUrl: sandbox.apiUrl,
      tokenUrl: sandbox.tokenUrl,
      clientId: LOCAL_CLIENT_ID,
      clientSecret: LOCAL_CLIENT_SECRET,
      localCredential: true,
      clock: new LiveClock(),
    });
    rest = new RestVenue(api, sandbox.sim.profiles.defaultId);
    sim = new SimVenue(new SimPlatform({ clock, seed: 7, funding: { USD: '100000', BTC: '1' } }));
    const market = new PointMarket({ funding: { USD: '100000', BTC: '1' } });
    market.point('BTCUSD', T0, 60_000);
    market.point('MATICUSD', T0, 0.7);
    point = new PointVenue(market);
  });

  afterAll(async () => {
    await api.close();
    await sandbox.close();
  });

  for (const o of BAD_ORDERS) {
    it(`refuses ${o.name} with the same field and words everywhere`, async () => {
      const answers = {
        sandbox: await refusedBy(rest, o, `parity-${++seq}`),
        sim: await refusedBy(sim, o, `parity-${++seq}`),
        pointReplay: await refusedBy(point, o, `parity-${++seq}`),
        riskGateCatalog: deniedByGate(o, []),
        riskGateVenue: deniedByGate(o, await rest.instruments()),
      };
      expect(answers).toEqual({
        sandbox: o.expected,
        sim: o.expected,
        pointReplay: o.expected,
        riskGateCatalog: o.expected,
        riskGateVenue: o.expected,
      });
    });
  }

  it('accepts the same orders once rounded with the instrument helpers, everywhere', async () => {
    const btc = (await rest.instruments()).find((i) => i.market === 'BTCUSD')!;
    const fixed = {
      market: 'BTCUSD',
      side: 'BUY' as const,
      type: 'LIMIT' as const,
      baseAmount: roundBase(btc, '0.010000001'),
      price: roundPrice(btc, '59999.877', 'down'),
    };
    expect(fixed).toMatchObject({ baseAmount: '0.01', price: '59999.87' });
    for (const venue of [rest, sim, point])
      expect((await venue.placeOrder({ refId: `parity-${++seq}`, ...fixed })).status).not.toBe('REJECTED');
    expect(gateDecides(fixed, []).kind).toBe('approve');
  });
});
