import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestClock } from '../clock/index.js';
import { D, type Decision, type ExecReport } from '../core/index.js';
import { Journal } from '../exec/index.js';
import { RiskLimitsSchema } from '../risk/index.js';
import { balanceFromWire } from '../state/index.js';
import { defineStrategy, type StrategyDefinition } from '../strategy/index.js';
import { ScriptedVenue } from '../../test/support/scripted-venue.js';
import { Kernel } from './kernel.js';
import { StrategyRunner } from './strategy-runner.js';

const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

const buyEveryPrice = defineStrategy({
  name: 'buy-every-price',
  description: 'buys 0.1 BTC at each price event',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => ({
    onEvent: (e) =>
      e.kind === 'price'
        ? { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.1', price: String(e.price) }
        : undefined,
  }),
});

function build(definitions: StrategyDefinition[], usd = '1000') {
  const clock = new TestClock(1_700_000_000_000);
  const journal = new Journal(':memory:');
  journals.push(journal);
  const venue = new ScriptedVenue(() => clock.now());
  const reports: ExecReport[] = [];
  const decisions: Decision[] = [];
  let strategies: StrategyRunner[] = [];
  const kernel = new Kernel(
    { clock, venue, journal },
    {
      limits: RiskLimitsSchema.parse({ price_band_bps: 10_000 }),
      refPrefix: 't',
      fillsSinceMs: 0,
      strategies: (ids) => (strategies = definitions.map((d) => new StrategyRunner(d.name, d, {}, ['BTCUSD'], ids))),
    },
  );
  kernel.applyAccount({ kind: 'balances', at: clock.now(), items: [balanceFromWire('USD', usd, '0'), balanceFromWire('BTC', '0', '0')] });
  kernel.reports$.subscribe((r) => reports.push(r));
  kernel.decisions$.subscribe((d) => decisions.push(d));
  return { clock, kernel, engine: kernel.engine, journal, venue, reports, decisions, strategies, fills: kernel.fills };
}

describe('Engine', () => {
  it('runs event → strategy → risk → journal → executor, with ref_id = intent id', async () => {
    const s = build([buyEveryPrice]);
    s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
    await s.engine.drain();
    expect(s.decisions.map((d) => d.kind)).toEqual(['approve']);
    expect(s.journal.get('t-1')).toMatchObject({ state: 'open', status: 'OPEN' });
    expect([...s.venue.orders.values()].map((o) => o.refId)).toEqual(['t-1']);
    expect(s.reports.map((r) => r.kind)).toEqual(['accepted']);
  });

  it('reserves funds of approved intents so two quick buys cannot spend the same money', async () => {
    const s = build([buyEveryPrice], '15');
    s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
    s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
    await s.engine.drain();
    expect(s.decisions.map((d) => (d.kind === 'deny' ? d.reason.code : 'approve'))).toEqual(['approve', 'INSUFFICIENT_BALANCE']);
    expect(s.venue.orders.size).toBe(1);
  });

  it('stops a throwing strategy and keeps the others going', async () => {
    const thrower = defineStrategy({
      name: 'thrower',
      description: 'throws',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => ({
        onEvent: () => {
          throw new Error('boom');
        },
      }),
    });
    const s = build([thrower, buyEveryPrice]);
    s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
    await s.engine.drain();
    expect(s.strategies[0]?.stopped).toMatch(/onEvent threw: boom/);
    expect(s.strategies[1]?.stopped).toBeUndefined();
    expect(s.venue.orders.size).toBe(1);
  });

  it('stops a strategy that returns something that is not an intent', () => {
    const bad = defineStrategy({
      name: 'bad',
      description: 'bad output',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => ({ onEvent: () => ({ kind: 'buy-now' }) as never }),
    });
    const s = build([bad]);
    s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
    expect(s.strategies[0]?.stopped).toMatch(/not an intent/);
  });

  it('journals a NaN amount as a denial and sends nothing', async () => {
    const nan = defineStrategy({
      name: 'nan',
      description: 'NaN amount',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => ({
        onEvent: () => ({
          kind: 'place-order',
          market: 'BTCUSD',
          side: 'BUY',
          type: 'LIMIT',
          baseAmount: String(Number.NaN),
          price: '100',
        }),
      }),
    });
    const s = build([nan]);
    s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
    await s.engine.drain();
    expect(s.journal.get('t-1')).toMatchObject({ state: 'denied', denialCode: 'INVALID_INTENT' });
    expect(s.venue.orders.size).toBe(0);
  });

  it('passes fills to the strategy that owns the order', async () => {
    const seen: string[] = [];
    const listener = defineStrategy({
      name: 'listener',
      description: 'records reports',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => {
        let sent = false;
        return {
          onEvent: () => {
            if (sent) return undefined;
            sent = true;
            return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '100' };
          },
          onReport: (r) => void seen.push(r.kind),
        };
      },
    });
    const s = build([listener]);
    s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
    await s.engine.drain();
    const orderId = [...s.venue.orders.keys()][0] as string;
    s.venue.fill(orderId, '1', '100');
    expect(s.engine.ownedIntents).toBe(1);
    // the journal learns the order closed before its fill is read: that fill is the order's last
    await s.kernel.reconciler.reconcile();
    await s.fills.poll();
    expect(seen).toEqual(['accepted', 'filled']);
    // nothing more will come for the order, so the engine forgets its owner
    expect(s.engine.ownedIntents).toBe(0);
  });
});

describe('Engine warm-up and denials', () => {
  it('tells the strategy of a denial with its own denied report, carrying the reason and its numbers', async () => {
    const seen: ExecReport[] = [];
    const greedy = defineStrategy({
      name: 'greedy',
      description: 'buys more than it has',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => ({
        onEvent: () => ({ kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '100', price: '100' }),
        onReport: (r) => void seen.push(r),
      }),
    });
    const s = build([greedy]);
    s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
    await s.engine.drain();
    expect(seen).toHaveLength(1);
    const r = seen[0]!;
    expect(r.kind).toBe('denied');
    if (r.kind !== 'denied') return;
    expect(r.reason.code).toBe('INSUFFICIENT_BALANCE');
    expect(r.reason.details).toMatchObject({ asset: 'USD', available: '1000' });
    expect(s.venue.orders.size).toBe(0);
  });

  it('warms strategies up with ctx.warmingUp set, dropping their intents before any id is taken', async () => {
    const flags: boolean[] = [];
    const heard: ExecReport[] = [];
    const eager = defineStrategy({
      name: 'eager',
      description: 'buys at each price and notes the warm-up flag',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => ({
        onEvent: (e, ctx) => {
          flags.push(ctx.warmingUp);
          return e.kind === 'price'
            ? { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.1', price: String(e.price) }
            : undefined;
        },
        onReport: (r) => void heard.push(r),
      }),
    });
    const s = build([eager]);
    const n = s.engine.warmUp(
      [1, 2, 3].map((i) => ({ kind: 'price' as const, market: 'BTCUSD', at: s.clock.now() - 10_000 + i, price: 100 + i })),
    );
    expect(n).toBe(3);
    expect(s.venue.orders.size).toBe(0);
    expect(s.journal.intents()).toHaveLength(0);
    expect(heard).toEqual([]);
    expect(s.decisions).toEqual([]);
    s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
    await s.engine.drain();
    expect(flags).toEqual([true, true, true, false]);
    // the first live intent takes the first id: nothing was spent on history
    expect(s.decisions.map((d) => d.intent.intentId)).toEqual(['t-1']);
  });

  it('ctx.warmingUp follows every warm-up, for a context made before it too, and a strategy cannot set it', async () => {
    const flags: boolean[] = [];
    const refused: string[] = [];
    const watcher = defineStrategy({
      name: 'watcher',
      description: 'notes the warm-up flag and tries to change it',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => ({
        onEvent: (_e, ctx) => {
          flags.push(ctx.warmingUp);
          try {
            (ctx as { warmingUp: boolean }).warmingUp = !ctx.warmingUp;
          } catch (e) {
            refused.push((e as Error).constructor.name);
          }
        },
      }),
    });
    const s = build([watcher]);
    const at = s.clock.now();
    s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at, price: 100 });
    s.engine.warmUp([{ kind: 'price' as const, market: 'BTCUSD', at: at - 5_000, price: 99 }]);
    s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at, price: 101 });
    await s.engine.drain();
    expect(flags).toEqual([false, true, false]);
    expect(refused).toEqual(['TypeError', 'TypeError', 'TypeError']);
  });

  it('gives strategies context methods that work when taken off the context', () => {
    // plugins destructure the context (const { now } = ctx): its methods must not need their this
    const seen: string[] = [];
    const destructure = defineStrategy({
      name: 'destructure',
      description: 'reads the context through methods taken off it',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => ({
        onEvent: (_e, ctx) => {
          const { now, market, history, instrument, intentIdOf } = ctx;
          const { available, total, openOrders } = ctx.account;
          seen.push(`${now()} ${market('BTCUSD').price?.value} ${history('BTCUSD').length} ${instrument('BTCUSD').market}`);
          seen.push(
            `${available('USD').toFixed()} ${total('USD').toFixed()} ${openOrders().length} ${intentIdOf({ kind: 'cancel-order', orderRefId: 'x' })}`,
          );
        },
      }),
    });
    const s = build([destructure]);
    s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
    expect(seen).toEqual([`${s.clock.now()} 100 1 BTCUSD`, '1000 1000 0 undefined']);
  });

  it("a sell naming no reason, made while a kill-switch cause holds, is journaled as a kill-switch exit; an operator's keeps its reason, and an operator's halt tags nothing", async () => {
    const seller = defineStrategy({
      name: 'seller',
      description: 'sells 0.1 BTC at each price, naming no exit reason',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => ({
        onEvent: (e) =>
          e.kind === 'price' ? { kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '0.1' } : undefined,
      }),
    });
    const s = build([seller]);
    s.kernel.applyAccount({
      kind: 'balances',
      at: s.clock.now(),
      items: [balanceFromWire('USD', '1000', '0'), balanceFromWire('BTC', '1', '0')],
    });
    // the BTC is the seller's own (as strategies[].holdings assigns it): a balance no strategy holds is sold by none
    s.kernel.positions.assign('seller', 'BTCUSD', new D('1'), new D('100'), s.clock.now());
    const price = async (): Promise<void> => {
      s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
      await s.engine.drain();
    };
    const reasonOf = (ref: string) => (s.journal.get(ref)?.intent as { exitReason?: string }).exitReason;
    await price();
    s.kernel.haltKeepingOrders('maintenance');
    await price();
    s.kernel.gate.killSwitch.trip('drawdown 21% from the peak', { kind: 'drawdown', at: s.clock.now() });
    await price();
    s.engine.submit('seller', [
      {
        kind: 'place-order',
        intentId: 't-op',
        strategy: 'seller',
        market: 'BTCUSD',
        side: 'SELL',
        type: 'MARKET',
        baseAmount: '0.1',
        exitReason: 'operator',
      },
    ]);
    await s.engine.drain();
    expect(s.decisions.map((d) => [d.intent.intentId, d.kind])).toEqual([
      ['t-1', 'approve'],
      ['t-2', 'approve'],
      ['t-3', 'approve'],
      ['t-op', 'approve'],
    ]);
    expect(['t-1', 't-2', 't-3', 't-op'].map(reasonOf)).toEqual([undefined, undefined, 'kill-switch', 'operator']);
    expect((s.decisions[2]!.intent as { exitReason?: string }).exitReason).toBe('kill-switch');
  });
});
