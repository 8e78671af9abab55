import { describe, expect, it } from 'vitest';
import { D, ZERO, type Dec, type ExecReport, type Intent } from '../core/index.js';
import { Journal } from '../exec/journal.js';
import { applyFill, openBook, positionOf, type Book } from '../exec/journal-trades.js';
import { Rng } from '../core/rng.js';
import { DEFAULT_RISK_LIMITS, RiskGate } from '../risk/index.js';
import type { RiskView } from '../risk/view.js';
import { Position } from '../strategy/position.js';
import type { StrategyContext } from '../strategy/index.js';
import { PositionBook, unassignedNote, type PositionsMode } from './positions.js';

const M = 'BTCUSD';

/** A book over a journal in memory, for strategies `grid` and `trend` on BTCUSD (or `grid` alone). */
function rig(o: { journal?: Journal; mode?: PositionsMode; alone?: boolean; btc?: string } = {}) {
  const journal = o.journal ?? new Journal(':memory:');
  const totals = new Map<string, Dec>([['BTC', new D(o.btc ?? '0')]]);
  const markets = new Map([['grid', new Set([M])], ...(o.alone ? [] : [['trend', new Set([M])] as const])]);
  const book = new PositionBook({ journal, mode: o.mode ?? 'per_strategy', markets, mid: () => 100, total: (a) => totals.get(a) ?? ZERO });
  book.onBalances(totals.keys());
  let n = 0;
  /** An approved order of `strategy` and its one fill, reported (the journal holds both, as the executors leave them). */
  const trade = (strategy: string, side: 'BUY' | 'SELL', amount: string, price: string, commission = '0'): ExecReport => {
    const intent: Intent = { kind: 'place-order', intentId: `t-${++n}`, strategy, market: M, side, type: 'MARKET', baseAmount: amount };
    journal.recordDecision({ kind: 'approve', intent, at: n });
    book.onDecision({ kind: 'approve', intent, at: n });
    const f = {
      fillId: `f-${n}`,
      refId: intent.intentId,
      orderId: `o-${n}`,
      market: M,
      side,
      amount,
      price,
      commission,
      commissionAsset: 'USD',
      at: 1_000 + n,
    };
    journal.recordFill(f);
    const report: ExecReport = { kind: 'filled', ...f, orderDone: true };
    book.onReport(report);
    return report;
  };
  return { journal, book, trade, totals };
}

/** A strategy context of `grid` over the book, whose account shows `btc` (a balance as last polled). */
function contextOf(book: PositionBook, btc: Dec): StrategyContext {
  return {
    now: () => 10_000,
    warmingUp: false,
    market: () => ({ price: { value: 100, at: 10_000 } }) as never,
    history: () => undefined as never,
    bars: () => undefined as never,
    instrument: () => ({ market: M, base: 'BTC', quote: 'USD', baseDecimals: 8, quoteDecimals: 2 }) as never,
    account: {
      available: (a: string) => (a === 'BTC' ? btc : new D('1000')),
      total: (a: string) => (a === 'BTC' ? btc : new D('1000')),
      openOrders: () => [],
    },
    intentIdOf: () => undefined,
    position: (m: string) => book.view('grid', m),
    keepExitLevels: (m: string, l: object) => book.keepExitLevels('grid', m, l),
    plot: () => undefined,
  };
}

describe('PositionBook: each strategy its own position', () => {
  it('moves a position on the fill report itself, with average cost, realized P&L after fees and unrealized P&L at mid', () => {
    const { book, trade } = rig();
    trade('grid', 'BUY', '0.02', '90', '0.02');
    trade('grid', 'BUY', '0.02', '110', '0.02');
    const p = book.view('grid', M);
    expect([p.amount.toFixed(), p.averageCost?.toFixed(), p.unrealizedPnl?.toFixed(), p.entryAt]).toEqual(['0.04', '101', '-0.04', 1_001]);
    trade('grid', 'SELL', '0.01', '120', '0.01');
    expect([p.amount.toFixed(), p.realizedPnl.toFixed(), p.fees.toFixed()]).toEqual(['0.03', '0.18', '0.05']);
    expect(book.view('trend', M).amount.toFixed()).toBe('0');
  });

  it('continues across a restart: the journal gives back each position and its exit levels', () => {
    const first = rig();
    first.trade('trend', 'BUY', '0.05', '100');
    first.book.keepExitLevels('trend', M, { stopLoss: 95, highest: 104 });
    const again = rig({ journal: first.journal });
    expect(again.book.view('trend', M).amount.toFixed()).toBe('0.05');
    expect(again.book.view('trend', M).exitLevels).toEqual({ stopLoss: 95, highest: 104 });
    expect(again.book.list().map((p) => [p.strategy, p.position])).toEqual([['trend', '0.05']]);
  });

  it('the gate denies a sell of more than the strategy holds of its own (OWN_POSITION, with the numbers), and lets its own through', () => {
    const { book, trade } = rig({ btc: '1' });
    trade('grid', 'BUY', '0.03', '100');
    const view: RiskView = {
      now: () => 5_000,
      market: () => ({ price: { value: 100, at: 5_000 } }) as never,
      available: () => new D('10'),
      total: () => new D('10'),
      openOrderCount: () => 0,
      instrument: () => undefined,
      transferRemaining: () => undefined,
    };
    const gate = new RiskGate({ ...DEFAULT_RISK_LIMITS, min_order_notional: '0.01', stale_after_ms: 1e12 }, view, undefined, book);
    const sell = (strategy: string, baseAmount: string) =>
      gate.decide({
        kind: 'place-order',
        intentId: `s-${strategy}-${baseAmount}`,
        strategy,
        market: M,
        side: 'SELL',
        type: 'MARKET',
        baseAmount,
      });
    const denied = sell('trend', '0.01');
    expect(denied).toMatchObject({
      kind: 'deny',
      reason: { code: 'OWN_POSITION', details: { strategy: 'trend', required: '0.01', own: '0', asset: 'BTC' } },
    });
    expect(sell('grid', '0.03').kind).toBe('approve');
    expect(sell('grid', '0.031')).toMatchObject({ reason: { code: 'OWN_POSITION', details: { own: '0.03' } } });
    // the balance no strategy holds stays apart, and the positions add up to the account
    expect([book.unassignedOf('BTC').toFixed(), book.heldOf('BTC').toFixed()]).toEqual(['1', '0.03']);
  });

  it('a sell sized in the quote asset counts against the own position at the price it converts at, open until it executes, and cannot oversell', () => {
    const { book, trade, journal } = rig({ btc: '1' });
    trade('grid', 'BUY', '0.05', '100');
    const quote = { value: { quoteId: 'q-1', side: 'SELL', price: '120', expiresAt: 60_000 }, at: 5_000 };
    const snapshot = { market: M, price: { value: 100, at: 5_000 }, quotes: { SELL: quote }, updatedAt: 5_000 };
    const view: RiskView = {
      now: () => 5_000,
      market: () => snapshot as never,
      available: () => new D('10'),
      total: () => new D('10'),
      openOrderCount: () => 0,
      instrument: () => undefined,
      transferRemaining: () => undefined,
    };
    const withQuotes = new PositionBook({
      journal,
      mode: 'per_strategy',
      markets: new Map([
        ['grid', new Set([M])],
        ['trend', new Set([M])],
      ]),
      mid: () => 100,
      total: () => new D('1.05'),
      snapshot: () => snapshot as never,
    });
    withQuotes.onBalances(['BTC']);
    const gate = new RiskGate({ ...DEFAULT_RISK_LIMITS, min_order_notional: '0.01', stale_after_ms: 1e12 }, view, undefined, withQuotes);
    const decide = (intent: Intent) => {
      const d = gate.decide(intent);
      withQuotes.onDecision(d);
      return d;
    };
    // 3.6 USD at the quote's 120 is 0.03 BTC of grid's 0.05: approved, and it stays committed while open
    const first: Intent = { kind: 'execute-quote', intentId: 'qs-1', strategy: 'grid', market: M, side: 'SELL', quoteAmount: '3.6' };
    expect(decide(first).kind).toBe('approve');
    expect(withQuotes.sellable('grid', M).toFixed()).toBe('0.02');
    // a second one would sell what the first has taken (converted at the quote's 120, not the mid's 100)
    expect(decide({ ...first, intentId: 'qs-2' })).toMatchObject({
      kind: 'deny',
      reason: { code: 'OWN_POSITION', details: { strategy: 'grid', required: '0.03', own: '0.02' } },
    });
    expect(decide({ ...first, intentId: 'qs-3', quoteAmount: '2.6' })).toMatchObject({
      reason: { code: 'OWN_POSITION', details: { own: '0.02' } },
    });
    // another strategy cannot sell grid's position by naming an amount of USD either
    expect(decide({ ...first, intentId: 'qs-4', strategy: 'trend', quoteAmount: '1.2' })).toMatchObject({
      reason: { code: 'OWN_POSITION', details: { strategy: 'trend', required: '0.01', own: '0' } },
    });
    // the execution moves the position and frees the commitment: what is left is sellable once
    journal.recordDecision({ kind: 'approve', intent: first, at: 6 });
    withQuotes.onReport({
      kind: 'quote-executed',
      refId: 'qs-1',
      executionId: 'x-1',
      market: M,
      side: 'SELL',
      baseAmount: '0.03',
      quoteAmount: '3.6',
      price: '120',
      settled: true,
      at: 6_000,
    });
    expect([withQuotes.view('grid', M).amount.toFixed(), withQuotes.sellable('grid', M).toFixed()]).toEqual(['0.02', '0.02']);
    expect(decide({ ...first, intentId: 'qs-5', quoteAmount: '2.4' }).kind).toBe('approve');
    expect(withQuotes.sellable('grid', M).toFixed()).toBe('0');
    expect(book.view('grid', M).amount.toFixed()).toBe('0.05');
  });

  it("at start, names the balance of a traded base asset that no strategy holds (the journal's positions are apart)", () => {
    const journal = new Journal(':memory:');
    rig({ journal }).trade('grid', 'BUY', '0.25', '100');
    const totals: Record<string, Dec> = { BTC: new D('1.25'), USD: new D('500') };
    const book = new PositionBook({
      journal,
      mode: 'per_strategy',
      markets: new Map([['grid', new Set([M])]]),
      mid: () => 100,
      total: (a) => totals[a] ?? ZERO,
    });
    const found = book.onBalances(['BTC', 'USD']);
    expect(found?.map((f) => [f.asset, f.amount.toFixed()])).toEqual([['BTC', '1']]);
    expect(unassignedNote([...found!, { asset: 'ETH', amount: new D('2.5') }], 'per_strategy')).toBe(
      "held by no strategy: 1 BTC, 2.5 ETH (deposits, or holdings from before this journal; strategies[].holdings makes them a strategy's own): no strategy may sell it until strategies[].holdings assigns it to one (or risk.positions is shared)",
    );
    // later balances change nothing
    expect(book.onBalances(['BTC'])).toBeUndefined();
  });

  it('shared: held to the balance alone, the balance no strategy holds included', () => {
    const shared = rig({ mode: 'shared', btc: '1' });
    shared.trade('grid', 'BUY', '0.03', '100');
    expect([shared.book.restricted(M), shared.book.sellable('trend', M).toFixed()]).toEqual([false, '1.03']);
  });

  it("per strategy, a market's only strategy too sells its own alone: a balance no strategy holds waits to be assigned", () => {
    const alone = rig({ alone: true, btc: '1' });
    alone.trade('grid', 'BUY', '0.03', '100');
    expect([alone.book.restricted(M), alone.book.sellable('grid', M).toFixed(), alone.book.unassignedOf('BTC').toFixed()]).toEqual([
      true,
      '0.03',
      '1',
    ]);
  });

  it("start holdings (a backtest's starting base) become the strategy's own with the first balances, journaled once, at most what is unassigned", () => {
    const journal = new Journal(':memory:');
    const totals: Record<string, Dec> = { BTC: new D('1.5') };
    const deps = {
      journal,
      mode: 'per_strategy' as const,
      markets: new Map([
        ['grid', new Set([M])],
        ['trend', new Set([M])],
      ]),
      mid: () => 100,
      total: (a: string) => totals[a] ?? ZERO,
      startHoldings: [
        { strategy: 'grid', market: M, amount: '1', price: '90' },
        { strategy: 'trend', market: M, amount: '2', price: '95' },
      ],
    };
    const book = new PositionBook(deps);
    expect(book.onBalances(['BTC'], 5_000)).toEqual([]);
    expect([
      book.view('grid', M).amount.toFixed(),
      book.view('grid', M).averageCost?.toFixed(),
      book.view('trend', M).amount.toFixed(),
    ]).toEqual(['1', '90', '0.5']);
    expect(book.assigned('grid', M)).toEqual({ amount: '1', price: '90', at: 5_000 });
    // a restart over the same journal reads them back and assigns nothing again
    const again = new PositionBook({ ...deps, journal });
    again.onBalances(['BTC'], 9_000);
    expect([again.view('grid', M).amount.toFixed(), again.view('trend', M).amount.toFixed(), again.unassignedOf('BTC').toFixed()]).toEqual([
      '1',
      '0.5',
      '0',
    ]);
  });

  it('an open sell commits what it may take: the strategy cannot sell it twice', () => {
    const { book, trade } = rig();
    trade('grid', 'BUY', '0.05', '100');
    const intent: Intent = {
      kind: 'place-order',
      intentId: 'rest-1',
      strategy: 'grid',
      market: M,
      side: 'SELL',
      type: 'LIMIT',
      baseAmount: '0.02',
      price: '120',
    };
    book.onDecision({ kind: 'approve', intent, at: 9 });
    expect(book.sellable('grid', M).toFixed()).toBe('0.03');
    book.onReport({ kind: 'cancelled', refId: 'rest-1', orderId: 'o', at: 10 });
    expect(book.sellable('grid', M).toFixed()).toBe('0.05');
  });

  it('the double exit: an exit fill reported before the next balance poll leaves Position nothing to sell again', () => {
    const { book, trade } = rig({ alone: true });
    const entry = trade('grid', 'BUY', '0.25', '100');
    // the balance poll has not caught up with the exit: the account still shows the BTC
    const ctx = contextOf(book, new D('0.25'));
    const p = new Position(M, { sizePct: 50 });
    p.onEvent({ kind: 'price', market: M, at: 10_000, price: 100 }, ctx);
    p.onReport(entry, ctx);
    const exit = p.exitAll(ctx);
    expect(exit).toMatchObject({ side: 'SELL', baseAmount: '0.25' });
    const sold = trade('grid', 'SELL', '0.25', '101');
    p.onReport(sold, ctx);
    expect(p.busy).toBe(false);
    expect(p.exitAll(ctx)).toBeUndefined();
  });

  it('a restart between an entry and its stop: the stop level comes back from the journal and fires', () => {
    const before = rig({ alone: true });
    const ctx = contextOf(before.book, new D('0.1'));
    const p = new Position(M, { sizePct: 50, stopLossPct: 5, trailingStopPct: 10 });
    const at = (price: number, c: StrategyContext, helper = p) => helper.onEvent({ kind: 'price', market: M, at: 10_000, price }, c);
    at(100, ctx);
    expect(p.enter(ctx)).toMatchObject({ side: 'BUY' });
    p.onReport(before.trade('grid', 'BUY', '0.1', '100'), ctx);
    expect(at(104, ctx)).toBeUndefined();
    expect(before.book.view('grid', M).exitLevels).toEqual({ stopLoss: 95, trailingStop: 93.6, highest: 104 });
    // the process dies; a new run reads the same journal, with a new helper that has seen nothing
    const after = rig({ alone: true, journal: before.journal });
    const again = new Position(M, { sizePct: 50, stopLossPct: 5, trailingStopPct: 10 });
    const ctx2 = contextOf(after.book, new D('0.1'));
    expect(at(99, ctx2, again)).toBeUndefined();
    expect([again.state, again.levels]).toEqual(['long', { stopLoss: 95, trailingStop: 93.6 }]);
    expect(at(94.5, ctx2, again)).toMatchObject({ side: 'SELL', baseAmount: '0.1' });
    expect(again.exitReason?.kind).toBe('stop-loss');
  });

  it('keeps its books in exact units with the figures of the Decimal books, to the digit, at every fill (a seeded random run)', () => {
    const { journal, book } = rig();
    const rng = new Rng(34);
    const decimal = new Map<string, Book>([
      ['grid', openBook('grid', M)],
      ['trend', openBook('trend', M)],
    ]);
    const amountOf = (): string => (rng.next() * 3).toFixed(1 + Math.floor(rng.next() * 8));
    for (let n = 1; n <= 600; n++) {
      const strategy = rng.next() < 0.5 ? 'grid' : 'trend';
      const held = decimal.get(strategy)!.position;
      const side: 'BUY' | 'SELL' = held.gt(0) && rng.next() < 0.45 ? 'SELL' : 'BUY';
      // sells of part, all, or more than the position; buys with fees in either asset, or none
      const amount = side === 'SELL' ? (rng.next() < 0.3 ? held.toFixed() : held.times(rng.next() * 1.2).toFixed(8)) : amountOf();
      const price = (20_000 + rng.next() * 20_000).toFixed(Math.floor(rng.next() * 3));
      const fee = rng.next() < 0.2 ? '0' : (rng.next() * 5).toFixed(4);
      const feeAsset = rng.next() < 0.25 ? 'BTC' : 'USD';
      const commission = feeAsset === 'BTC' ? new D(fee).div(20_000).toFixed(8) : fee;
      const intent: Intent = { kind: 'place-order', intentId: `r-${n}`, strategy, market: M, side, type: 'MARKET', baseAmount: amount };
      journal.recordDecision({ kind: 'approve', intent, at: n });
      const f = {
        fillId: `rf-${n}`,
        refId: intent.intentId,
        orderId: `ro-${n}`,
        market: M,
        side,
        amount,
        price,
        commission,
        commissionAsset: feeAsset,
      };
      journal.recordFill({ ...f, at: n });
      book.onReport({ kind: 'filled', ...f, at: n, orderDone: true });
      applyFill(decimal.get(strategy)!, { strategy, ...f, at: n, exitReason: null }, false);
      for (const [name, d] of decimal) {
        const v = book.view(name, M);
        const figures = [v.amount, v.averageCost, v.realizedPnl, v.fees, v.unrealizedPnl, v.entryAt].map((x) =>
          x === undefined ? x : String(x),
        );
        const long = d.position.gt(0);
        const want = [
          d.position,
          long ? d.cost.div(d.position) : undefined,
          d.realized,
          d.fees,
          long ? new D(100).times(d.position).minus(d.cost) : undefined,
          d.trip?.entryAt,
        ].map((x) => (x === undefined ? x : String(x)));
        expect(figures, `${name} after fill ${n}`).toEqual(want);
      }
    }
    expect(book.list()).toEqual([...decimal.values()].map(positionOf));
    expect([...decimal.values()].map((d) => d.trips)).toEqual(book.list().map((p) => p.roundTrips));
    expect(book.list().every((p) => p.roundTrips > 20)).toBe(true);
  });
});
