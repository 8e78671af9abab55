/**
 * Risk checks per second: the full ordered check list on approved and denied intents, with market
 * data and balances in place (decimal.js arithmetic included, as live).
 */
import { TestClock } from '../src/clock/index.js';
import { D, type Intent } from '../src/core/index.js';
import { instrumentOf } from '../src/platform/instruments.js';
import { RiskGate, RiskLimitsSchema, type RiskView } from '../src/risk/index.js';
import { MarketStore } from '../src/state/index.js';

export async function run(): Promise<void> {
  const clock = new TestClock(1_700_000_000_000);
  const store = new MarketStore(clock);
  store.apply({
    kind: 'book',
    market: 'BTCUSD',
    at: clock.now(),
    bids: [{ price: 60_000, amount: 1 }],
    asks: [{ price: 60_010, amount: 1 }],
  });
  const usd = new D('1000000');
  const btc = new D('10');
  const btcUsd = instrumentOf({ market: 'BTCUSD', tickRate: '0.01' });
  const view: RiskView = {
    now: () => clock.now(),
    market: (m) => store.snapshot(m),
    available: (a) => (a === 'USD' ? usd : btc),
    total: (a) => (a === 'USD' ? usd : btc),
    openOrderCount: () => 3,
    instrument: () => btcUsd,
    transferRemaining: () => undefined,
  };
  const gate = new RiskGate(RiskLimitsSchema.parse({ max_intents_per_minute: 1_000_000_000, max_order_notional: '1000000' }), view);
  const approve: Intent = {
    kind: 'place-order',
    intentId: 'a',
    strategy: 's',
    market: 'BTCUSD',
    side: 'BUY',
    type: 'LIMIT',
    baseAmount: '0.01',
    price: '60000.00',
  };
  const deny: Intent = { ...approve, intentId: 'd', baseAmount: '100' };
  const market: Intent = {
    kind: 'place-order',
    intentId: 'm',
    strategy: 's',
    market: 'BTCUSD',
    side: 'BUY',
    type: 'MARKET',
    quoteAmount: '100.00',
  };
  for (const [label, intent] of [
    ['limit buy, approved', approve],
    ['limit buy, denied on balance', deny],
    ['market buy, approved', market],
  ] as const) {
    for (let i = 0; i < 20_000; i++) gate.decide(intent); // warm-up
    const n = 200_000;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) gate.decide(intent);
    const ns = Number(process.hrtime.bigint() - t0) / n;
    process.stdout.write(`risk gate, ${label}: ${(1e9 / ns).toFixed(0)} decisions/s (${(ns / 1000).toFixed(2)} µs each)\n`);
  }
}
