import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestClock } from '../clock/index.js';
import { ConfigError, parseConfig, RiskLimitsSchema } from '../config/index.js';
import { Journal, tradesFromFills } from '../exec/index.js';
import { Kernel } from '../engine/kernel.js';
import { StrategyRunner } from '../engine/strategy-runner.js';
import { balanceFromWire } from '../state/index.js';
import { defineStrategy } from '../strategy/index.js';
import { ScriptedVenue } from '../../test/support/scripted-venue.js';
import { assignHoldings, holdingsOf } from './holdings.js';

const idle = (name: string) =>
  defineStrategy({ name, description: name, params: z.object({}), markets: ['BTCUSD'], create: () => ({ onEvent: () => undefined }) });

const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

/** A kernel of `grid` and `trend` on BTCUSD over `journal`, whose account holds 1 BTC, at a price of 100 (or none). */
function kernelOver(journal: Journal, price: number | null = 100, names: readonly string[] = ['grid', 'trend']) {
  const clock = new TestClock(1_700_000_000_000);
  const kernel = new Kernel(
    { clock, venue: new ScriptedVenue(() => clock.now()), journal },
    {
      limits: RiskLimitsSchema.parse({}),
      refPrefix: 't',
      fillsSinceMs: 0,
      strategies: (ids) => names.map((n) => new StrategyRunner(n, idle(n), {}, ['BTCUSD'], ids)),
    },
  );
  kernel.applyAccount({
    kind: 'balances',
    at: clock.now(),
    items: [balanceFromWire('USD', '1000', '0'), balanceFromWire('BTC', '1', '0')],
  });
  if (price !== null) kernel.market.apply({ kind: 'price', market: 'BTCUSD', at: clock.now(), price });
  return { kernel, at: clock.now() };
}

const configOf = (holdings: Record<string, Record<string, unknown>>) =>
  parseConfig({ strategies: Object.entries(holdings).map(([name, h]) => ({ plugin: 'sma-cross', name, holdings: h })) });

describe('strategies[].holdings: balances held by no strategy, assigned by the config', () => {
  it("makes them each strategy's own position at the documented cost basis, journaled once: a restart assigns nothing again", () => {
    const journal = new Journal(':memory:');
    journals.push(journal);
    const first = kernelOver(journal);
    expect(first.kernel.positions.unassignedOf('BTC').toFixed()).toBe('1');
    const holdings = holdingsOf(configOf({ grid: { BTCUSD: '0.25' }, trend: { BTCUSD: { amount: '0.5', price: '90' } } }).strategies);
    assignHoldings(first.kernel, holdings, first.at);
    const { positions } = first.kernel;
    // the string form at the market's price at start, the object form at its own price
    expect([positions.view('grid', 'BTCUSD').amount.toFixed(), positions.view('grid', 'BTCUSD').averageCost?.toFixed()]).toEqual([
      '0.25',
      '100',
    ]);
    expect([positions.view('trend', 'BTCUSD').amount.toFixed(), positions.view('trend', 'BTCUSD').averageCost?.toFixed()]).toEqual([
      '0.5',
      '90',
    ]);
    expect(positions.summary().unassigned).toEqual({ BTC: '0.25' });
    // the positions and the unassigned balance add up to the account; the journal reads them as the kernel does
    expect(positions.heldOf('BTC').plus(positions.unassignedOf('BTC')).toFixed()).toBe('1');
    expect(tradesFromFills(journal.strategyFills()).positions).toEqual(positions.list());
    // each may now sell its own (where strategies share a market, no one could sell a balance no strategy holds)
    expect(
      first.kernel.gate.decide({
        kind: 'place-order',
        intentId: 'x-1',
        strategy: 'trend',
        market: 'BTCUSD',
        side: 'SELL',
        type: 'MARKET',
        baseAmount: '0.5',
      }).kind,
    ).toBe('approve');
    expect(
      first.kernel.gate.decide({
        kind: 'place-order',
        intentId: 'x-2',
        strategy: 'grid',
        market: 'BTCUSD',
        side: 'SELL',
        type: 'MARKET',
        baseAmount: '0.3',
      }),
    ).toMatchObject({ reason: { code: 'OWN_POSITION', details: { own: '0.25' } } });
    first.kernel.close();

    // a restart on the same journal, same balances, same config: nothing is assigned twice
    const again = kernelOver(journal, 120);
    assignHoldings(again.kernel, holdings, again.at + 1);
    expect(again.kernel.positions.list().map((p) => [p.strategy, p.position, p.averageCost])).toEqual([
      ['grid', '0.25', '100'],
      ['trend', '0.5', '90'],
    ]);
    expect(again.kernel.positions.summary().unassigned).toEqual({ BTC: '0.25' });
    again.kernel.close();
  });

  it("a market's only strategy sells no balance of no strategy's either, until a holding makes it its own", () => {
    const journal = new Journal(':memory:');
    journals.push(journal);
    const { kernel, at } = kernelOver(journal, 100, ['solo']);
    const sell = (intentId: string, baseAmount: string) =>
      kernel.gate.decide({ kind: 'place-order', intentId, strategy: 'solo', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount });
    expect(sell('s-1', '0.1')).toMatchObject({
      kind: 'deny',
      reason: { code: 'OWN_POSITION', details: { strategy: 'solo', required: '0.1', own: '0' } },
    });
    assignHoldings(kernel, holdingsOf(configOf({ solo: { BTCUSD: '0.4' } }).strategies), at);
    expect(sell('s-2', '0.4').kind).toBe('approve');
    expect(sell('s-3', '0.5')).toMatchObject({ reason: { code: 'OWN_POSITION', details: { own: '0.4' } } });
    kernel.close();
  });

  it('names an unnamed entry by the name its strategy runs under when given (a plugin by path runs under its definition name)', () => {
    const entries = parseConfig({
      strategies: [
        { plugin: './plugins/grid.ts', holdings: { BTCUSD: '0.1' } },
        { plugin: 'sma-cross', name: 'trend' },
      ],
    }).strategies;
    expect(holdingsOf(entries).map((h) => h.strategy)).toEqual(['./plugins/grid.ts']);
    expect(holdingsOf(entries, ['grid-maker', 'trend']).map((h) => [h.key, h.strategy])).toEqual([
      ['strategies.0.holdings.BTCUSD', 'grid-maker'],
    ]);
  });

  it('refuses, naming each key, more than is held by no strategy (holdings together), a strategy that does not run, a market it does not trade, and no price to value at; assigns nothing then', () => {
    const journal = new Journal(':memory:');
    journals.push(journal);
    const { kernel, at } = kernelOver(journal, null);
    const bad = holdingsOf(
      configOf({ grid: { BTCUSD: { amount: '0.75', price: '100' }, ETHUSD: '1' }, trend: { BTCUSD: '0.5' }, nobody: { BTCUSD: '0.1' } })
        .strategies,
    );
    let problems: ReadonlyArray<{ path: string; message: string }> = [];
    try {
      assignHoldings(kernel, bad, at);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      problems = (e as ConfigError).problems;
    }
    expect(problems).toEqual([
      {
        path: 'strategies.0.holdings.ETHUSD',
        message: 'grid does not trade ETHUSD (it trades BTCUSD): assign a holding in one of its markets',
      },
      {
        path: 'strategies.1.holdings.BTCUSD',
        message: '0.5 BTC is more than is held by no strategy (1 BTC, and other holdings take 0.75 of it): assign at most that',
      },
      {
        path: 'strategies.1.holdings.BTCUSD',
        message: 'no price of BTCUSD is known at start to value it at: give the cost basis, e.g. { amount: "0.5", price: "61000" }',
      },
      {
        path: 'strategies.2.holdings.BTCUSD',
        message: "no strategy named nobody runs: name a running strategy's holdings (its name, else its plugin)",
      },
    ]);
    expect([kernel.positions.list(), kernel.positions.unassignedOf('BTC').toFixed(), journal.strategyFills()]).toEqual([[], '1', []]);
    kernel.close();
  });

  it('the config checks the key itself: a market the platform does not trade, an amount that is not a decimal above 0, an unknown field', () => {
    expect(() => configOf({ grid: { MARSUSD: '1', ETHUSD: { amount: '1', cost: '5' } } })).toThrow(
      /strategies\.0\.holdings\.MARSUSD: MARSUSD is not a trading market of the platform: write one of .*BTCUSD[\s\S]*strategies\.0\.holdings\.ETHUSD: unknown key\(s\) "cost"/,
    );
    expect(() => configOf({ grid: { BTCUSD: '0', ETHUSD: { amount: '1', price: '0' } } })).toThrow(
      /strategies\.0\.holdings\.BTCUSD: 0 is not more than 0: write the amount of the base asset[\s\S]*strategies\.0\.holdings\.ETHUSD\.price: 0 is not more than 0: write the cost basis per unit/,
    );
    expect(() => configOf({ grid: { BTCUSD: '1e-3' } })).toThrow(
      /strategies\.0\.holdings\.BTCUSD: must be an unsigned decimal amount without exponent/,
    );
    // a key YAML or JSON keeps but a record would drop without a word: refused, named
    const proto = JSON.parse('{ "__proto__": "1", "BTCUSD": "0.1" }') as Record<string, unknown>;
    expect(() => configOf({ grid: proto })).toThrow(/strategies\.0\.holdings\.__proto__/);
  });
});
