/**
 * The JSON the control API answers and the dashboard draws, built from the run's view, the journal
 * and the kernel's stores. Money stays a decimal string at full precision here; each amount that a
 * person reads also comes `…Shown` at its asset's precision (prices at the market's tick), so the
 * page does no decimal arithmetic of its own.
 */
import { D, formatAmount, formatPrice, splitMarket, ZERO, type Decision, type ExecReport } from '../core/index.js';
import type { JournalIntentRow, JournalRoundTrip, StrategyPosition } from '../exec/index.js';
import { midOf, quoteTimeLeftMs } from '../state/index.js';
import type { OpsRun } from './run-port.js';

const priceShown = (run: OpsRun, market: string, price: string | number | undefined): string | undefined => {
  if (price === undefined) return undefined;
  const decimals = run.kernel.riskView.instrument(market)?.priceDecimals;
  return decimals === undefined ? String(price) : formatPrice(price, decimals);
};

/** An open order as listed: terms, fill so far and age. */
export function orderView(run: OpsRun, row: JournalIntentRow, now: number): Record<string, unknown> {
  const i = row.intent.kind === 'place-order' ? row.intent : undefined;
  const market = row.market ?? '';
  const base = market ? splitMarket(market).base : '';
  return {
    refId: row.refId,
    strategy: row.strategy,
    market,
    side: row.side,
    type: i?.type,
    price: i?.price,
    priceShown: priceShown(run, market, i?.price),
    amount: i?.baseAmount ?? i?.quoteAmount,
    amountShown: i?.baseAmount !== undefined ? formatAmount(i.baseAmount, base) : i?.quoteAmount,
    amountFilled: row.amountFilled,
    status: row.status,
    state: row.state,
    venueId: row.venueId,
    createdAt: row.createdAt,
    ageMs: Math.max(0, now - row.createdAt),
  };
}

export function openOrders(run: OpsRun): Record<string, unknown>[] {
  const now = run.clock.now();
  return run.journal.intents({ state: 'open', kind: 'place-order' }).map((r) => orderView(run, r, now));
}

/** A decision as the API lists it: what was asked, and the denial's code and reason when denied. */
export function decisionView(d: Decision): Record<string, unknown> {
  const i = d.intent;
  const terms =
    i.kind === 'place-order'
      ? { market: i.market, side: i.side, type: i.type, price: i.price, amount: i.baseAmount ?? i.quoteAmount }
      : i.kind === 'execute-quote'
        ? { market: i.market, side: i.side, amount: i.baseAmount ?? i.quoteAmount }
        : i.kind === 'transfer'
          ? { asset: i.asset, amount: i.amount }
          : { orderRefId: i.orderRefId };
  return {
    at: d.at,
    decision: d.kind,
    strategy: i.strategy,
    refId: i.intentId,
    intent: i.kind,
    ...terms,
    ...(d.kind === 'deny' && { code: d.reason.code, reason: d.reason.message, details: d.reason.details }),
  };
}

/** An execution report as the API lists it (all fields are already wire decimals and epoch ms). */
export function reportView(r: ExecReport): Record<string, unknown> {
  if (r.kind === 'denied') return { kind: r.kind, refId: r.refId, at: r.at, code: r.reason.code, reason: r.reason.message };
  return { ...r };
}

/** One strategy's position valued at the market's mid: unrealized and total P&L in the quote asset. */
export function positionView(run: OpsRun, p: StrategyPosition): Record<string, unknown> {
  const mid = midOf(run.kernel.market.snapshot(p.market));
  const { base, quote } = splitMarket(p.market);
  const held = new D(p.position);
  const unrealized = mid === undefined || held.isZero() ? ZERO : held.times(mid).minus(p.costBasis);
  const pnl = unrealized.plus(p.realizedPnl);
  return {
    ...p,
    positionShown: formatAmount(p.position, base),
    ...(p.averageCost !== undefined && { averageCostShown: priceShown(run, p.market, p.averageCost) }),
    ...(mid !== undefined && { mid: String(mid), midShown: priceShown(run, p.market, mid) }),
    unrealizedPnl: unrealized.toFixed(),
    pnl: pnl.toFixed(),
    pnlShown: formatAmount(pnl, quote),
    quoteAsset: quote,
  };
}

/** Balances at full precision with the shown figure, and what transfers may still move of each. */
export function balancesView(run: OpsRun, balances: ReturnType<OpsRun['view']>['balances']): Record<string, unknown>[] {
  return balances.map((b) => {
    const left = run.kernel.riskView.transferRemaining(b.asset);
    const total = new D(b.available).plus(b.trading);
    return {
      ...b,
      total: total.toFixed(),
      totalShown: formatAmount(total, b.asset),
      availableShown: formatAmount(b.available, b.asset),
      ...(left !== undefined && { transferRemaining: left.toFixed(), transferRemainingShown: formatAmount(left, b.asset) }),
    };
  });
}

/**
 * The venue's transfer limits as last read: each with its period, the limit and what was left of it
 * then (full precision and shown at the limit asset's precision), and when it was read.
 */
export function transferLimitsView(run: OpsRun): Record<string, unknown>[] {
  const book = run.kernel.riskView.transferLimits;
  const at = book.lastReadAt;
  return book.readings().map((l) => ({
    limitAsset: l.limitAsset,
    period: l.perTransaction ? 'per transfer' : l.periodSeconds !== undefined ? periodText(l.periodSeconds) : 'unknown',
    ...(l.limit !== undefined && { limit: l.limit.toFixed(), limitShown: formatAmount(l.limit, l.limitAsset) }),
    remaining: l.remaining.toFixed(),
    remainingShown: formatAmount(l.remaining, l.limitAsset),
    ...(at !== undefined && { readAt: at }),
  }));
}

function periodText(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? 'a day' : `${seconds / 86_400} days`;
  if (seconds % 3_600 === 0) return seconds === 3_600 ? 'an hour' : `${seconds / 3_600} hours`;
  return `${seconds} s`;
}

/** The held-rate quotes per market with their time left, and the latest quote executions. */
export function quotesView(run: OpsRun): Record<string, unknown> {
  const now = run.clock.now();
  const markets = run.kernel.market.markets().map((m) => {
    const q = run.kernel.market.snapshot(m).quotes;
    const one = (side: 'BUY' | 'SELL'): Record<string, unknown> | undefined => {
      const o = q[side];
      return (
        o && {
          quoteId: o.value.quoteId,
          price: o.value.price,
          priceShown: priceShown(run, m, o.value.price),
          expiresAt: o.value.expiresAt,
          timeLeftMs: quoteTimeLeftMs(o, now),
        }
      );
    };
    return { market: m, buy: one('BUY'), sell: one('SELL') };
  });
  const executions = run.journal.intents({ kind: 'execute-quote', limit: 20 }).map((r) => ({
    refId: r.refId,
    strategy: r.strategy,
    market: r.market,
    side: r.side,
    state: r.state,
    status: r.status,
    averagePrice: r.averagePrice,
    amountFilled: r.amountFilled,
    createdAt: r.createdAt,
  }));
  return { markets, executions };
}

/** Stream ages, the request budget, 429s and the circuit breaker. */
export function healthView(run: OpsRun, rateLimited: number): Record<string, unknown> {
  const now = run.clock.now();
  const streams = (run.streams?.() ?? []).map((h) => ({
    ...h,
    ...(h.lastSuccessAt !== undefined && { ageMs: Math.max(0, now - h.lastSuccessAt) }),
  }));
  const b = run.budget;
  const breaker = run.reachability?.();
  return {
    streams,
    ...(b && { budget: { ratePerSec: b.ratePerSec, burst: b.burst, spent: b.spent(), queued: b.queued() } }),
    rateLimited,
    ...(breaker && { breaker: { state: breaker.unreachableSince === undefined ? 'closed' : 'open', ...breaker } }),
  };
}

/** A fill with its price at the market's tick and its amount at the base asset's precision. */
export function fillView(
  run: OpsRun,
  f: {
    readonly market: string;
    readonly price: string;
    readonly amount: string;
    readonly commission?: string;
    readonly commissionAsset?: string;
  },
): Record<string, unknown> {
  const feeAsset = f.commissionAsset || splitMarket(f.market).quote;
  return {
    ...f,
    priceShown: priceShown(run, f.market, f.price),
    amountShown: formatAmount(f.amount, splitMarket(f.market).base),
    ...(f.commission !== undefined && { feeShown: `${formatAmount(f.commission, feeAsset)} ${feeAsset}` }),
  };
}

/** A round trip with its prices at the tick and its P&L at the quote asset's precision. */
export function roundTripView(run: OpsRun, t: JournalRoundTrip): Record<string, unknown> {
  const { base, quote } = splitMarket(t.market);
  return {
    ...t,
    quantityShown: formatAmount(t.quantity, base),
    entryPriceShown: priceShown(run, t.market, t.entryPrice),
    ...(t.exitPrice !== undefined && { exitPriceShown: priceShown(run, t.market, t.exitPrice) }),
    pnlShown: formatAmount(t.pnl, quote),
    feesShown: formatAmount(t.fees, quote),
  };
}
