import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { MarketEvent } from '../core/index.js';
import { createLogger } from '../log/index.js';
import { defineStrategy, type IntentDraft, type StrategyContext, type StrategyHandlers } from '../strategy/index.js';
import { IntentIds } from './intent-ids.js';
import { framesOf } from './strategy-failure.js';
import { StrategyRunner } from './strategy-runner.js';

/** A runner over `handlers`, logging JSON lines into `lines`. */
function runner(handlers: () => StrategyHandlers) {
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger({ level: 'info', destination: { write: (s: string) => lines.push(JSON.parse(s) as Record<string, unknown>) } });
  const definition = defineStrategy({
    name: 'fragile',
    description: 'fails on purpose',
    params: z.object({}),
    markets: ['BTCUSD'],
    create: handlers,
  });
  return { lines, r: new StrategyRunner('fragile', definition, {}, ['BTCUSD'], new IntentIds('t'), log) };
}

const price: MarketEvent = { kind: 'price', market: 'BTCUSD', at: 1, price: 100 };
const ctx = {} as StrategyContext;

function divide(n: number): number {
  if (n === 0) throw new RangeError('cannot size an order on a zero price');
  return 1 / n;
}

describe('StrategyRunner failures', () => {
  it('logs the thrown error with its stack and keeps handler, message and first frames', () => {
    const { r, lines } = runner(() => ({ onEvent: () => (divide(0), undefined) }));
    expect(r.onEvent(price, ctx)).toBeUndefined();
    expect(r.failure).toMatchObject({ strategy: 'fragile', handler: 'onEvent', message: 'cannot size an order on a zero price' });
    expect(r.failure?.stack[0]).toMatch(/^at divide \(.*strategy-runner\.test\.ts:\d+:\d+\)$/);
    expect(r.stopped).toBe(`onEvent threw: cannot size an order on a zero price (${r.failure?.stack[0]})`);
    const [line] = lines;
    expect(line).toMatchObject({ level: 50, strategy: 'fragile', msg: `strategy fragile stopped: ${r.stopped}` });
    expect((line?.err as { stack?: string }).stack).toMatch(/RangeError: cannot size an order on a zero price\n\s+at divide/);
    expect(r.onEvent(price, ctx)).toBeUndefined();
    expect(lines).toHaveLength(1);
  });

  it('stops a strategy whose create() throws instead of failing the run', () => {
    const { r } = runner(() => {
      throw new Error('bad indicator setup');
    });
    expect(r.failure).toMatchObject({ handler: 'create', message: 'bad indicator setup' });
    expect(r.onEvent(price, ctx)).toBeUndefined();
  });

  it('stops an async handler and catches its later rejection, so it cannot crash the process', async () => {
    const { r, lines } = runner(() => ({ onEvent: () => Promise.reject(new Error('late')) as never }));
    expect(r.onEvent(price, ctx)).toBeUndefined();
    expect(r.failure).toMatchObject({
      handler: 'onEvent',
      message: 'onEvent returned a Promise: handlers must be synchronous (drop async, return the intents)',
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => l.msg)).toEqual([
      `strategy fragile stopped: ${r.stopped}`,
      'strategy fragile: its onEvent promise rejected after it was stopped',
    ]);
  });

  it('records a non-intent return as a failure without a stack', () => {
    const { r } = runner(() => ({ onEvent: () => 42 as never }));
    r.onEvent(price, ctx);
    expect(r.failure).toMatchObject({ handler: 'onEvent', stack: [] });
    expect(r.failure?.message).toMatch(/^onEvent returned 42, not an intent/);
  });

  it('keeps at most five frames of a stack, and none of a thrown string', () => {
    const deep = ['Error: x', ...Array.from({ length: 9 }, (_, i) => `    at f${i} (/p.ts:${i}:1)`)].join('\n');
    expect(framesOf(deep)).toEqual([
      'at f0 (/p.ts:0:1)',
      'at f1 (/p.ts:1:1)',
      'at f2 (/p.ts:2:1)',
      'at f3 (/p.ts:3:1)',
      'at f4 (/p.ts:4:1)',
    ]);
    const { r } = runner(() => ({
      onEvent: () => {
        throw 'plain string';
      },
    }));
    r.onEvent(price, ctx);
    expect(r.failure).toEqual({ strategy: 'fragile', handler: 'onEvent', message: 'plain string', stack: [] });
  });
});

describe('StrategyRunner intent ids', () => {
  it('tells a strategy the id each intent object it returned got (ctx.intentIdOf), and nothing for others', () => {
    const made: object[] = [];
    const { r } = runner(() => ({
      onEvent: () => {
        const pair = [
          { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10.00' },
          { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '1.00', timeInForce: 'GTC' },
        ] as const;
        made.push(...pair);
        return pair;
      },
    }));
    const intents = r.onEvent(price, ctx);
    expect(intents?.map((i) => i.intentId)).toEqual(['t-1', 't-2']);
    expect(made.map((d) => r.intentIdOf(d))).toEqual(['t-1', 't-2']);
    expect(r.intentIdOf({ kind: 'place-order' })).toBeUndefined();
  });
});

describe('StrategyRunner stamping', () => {
  it('makes an intent of the draft own properties, in their order, then its id and strategy, leaving the draft as it was', () => {
    const draft = Object.freeze({
      kind: 'place-order',
      market: 'BTCUSD',
      side: 'SELL',
      type: 'MARKET',
      baseAmount: '0.5',
      intentId: 'mine',
    } as const);
    const inherited = Object.assign(Object.create({ note: 'from the prototype' }) as object, {
      kind: 'cancel-order',
      refId: 'x-1',
    }) as unknown as IntentDraft;
    const { r } = runner(() => ({ onEvent: () => [draft, inherited] }));
    const [sell, cancel] = r.onEvent(price, ctx)!;
    expect(Object.entries(sell!)).toEqual([
      ['kind', 'place-order'],
      ['market', 'BTCUSD'],
      ['side', 'SELL'],
      ['type', 'MARKET'],
      ['baseAmount', '0.5'],
      ['intentId', 't-1'],
      ['strategy', 'fragile'],
    ]);
    expect(sell).not.toBe(draft);
    expect(draft.intentId).toBe('mine');
    // own properties only, as a spread copies them
    expect(Object.keys(cancel!)).toEqual(['kind', 'refId', 'intentId', 'strategy']);
    expect(r.intentIdOf(draft)).toBe('t-1');
  });
});

describe('StrategyRunner markets', () => {
  it('calls onEvent only for events of the markets the strategy trades, one market or several', () => {
    for (const markets of [['BTCUSD'], ['BTCUSD', 'ETHUSD']]) {
      const seen: string[] = [];
      const definition = defineStrategy({
        name: 'watch',
        description: 'records its events',
        params: z.object({}),
        markets,
        create: () => ({ onEvent: (e) => void seen.push(e.market) }),
      });
      const r = new StrategyRunner('watch', definition, {}, markets, new IntentIds('w'));
      for (const market of ['BTCUSD', 'ETHUSD', 'SOLUSD']) {
        r.onEvent({ ...price, market }, ctx);
        r.onWarmUpEvent({ ...price, market }, ctx);
      }
      expect(seen).toEqual(markets.flatMap((m) => [m, m]));
    }
  });
});
