import type { Subscription } from 'rxjs';
import { D, formatAmount, type Dec, type Decision, type ExecReport } from '../core/index.js';
import type { RunView } from '../live/index.js';
import type { HaltCause } from '../risk/index.js';
import type { PlotSeries } from '../engine/index.js';
import { tradesFromFills, type JournalRoundTrip, type StrategyPosition } from '../exec/index.js';
import { dailyPnl, type DailyPnl } from './daily-pnl.js';
import type { LogLevel, LogRecord, LogTail } from './log-tail.js';
import { Ring } from './ring.js';
import type { OpsRun } from './run-port.js';
import {
  balancesView,
  transferLimitsView,
  decisionView,
  fillView,
  healthView,
  openOrders,
  positionView,
  quotesView,
  reportView,
  roundTripView,
} from './views.js';

/** How trading stands, as the control API, the dashboard and `tradeloop ctl status` show it. */
export interface HaltState {
  readonly state: 'running' | 'halted' | 'kill-switch';
  /** Every active cause's reason, `; ` between them. */
  readonly reason?: string;
  readonly allowsReducing?: boolean;
  readonly causes: readonly HaltCause[];
}

/** One sample of the run's equity, total and per strategy (P&L), and each market's mid. */
export interface EquityPoint {
  readonly at: number;
  readonly equity?: string;
  readonly pnl?: string;
  readonly strategies: Readonly<Record<string, string>>;
  readonly mids: Readonly<Record<string, number>>;
}

/** A fill for the price chart's buy/sell markers. */
export interface FillMark {
  readonly at: number;
  readonly market: string;
  readonly side: string;
  readonly price: string;
  readonly amount: string;
  readonly refId: string;
  readonly strategy?: string;
  /** The fee and its asset (a quote execution's is in its price: 0). */
  readonly commission?: string;
  readonly commissionAsset?: string;
  /** Why the intent sold, when it said (stop-loss, signal, operator…). */
  readonly exitReason?: string;
}

export interface OpsStateOptions {
  /** Equity samples kept (one per `sample` call; the server samples each second): default 3600. */
  readonly historyCapacity?: number;
  readonly decisionsCapacity?: number;
  /** The run's last log records (the logger's tap), for GET /api/log. */
  readonly logTail?: LogTail;
  /** The run's config as it may be shown (see redactConfig), for GET /api/config. */
  readonly config?: unknown;
}

/** Candles and plotted points per series the dashboard's charts get (GET /api/charts). */
export const CHART_BARS = 300;
export const CHART_PLOT_POINTS = 1_000;

/**
 * What the operations server keeps of a run beyond the run's own view, all bounded: the latest
 * decisions and reports (from the kernel's streams), recent fills for the chart's markers, the equity
 * history the dashboard draws, and how trading stands (every active halt cause with its reason; see
 * `haltState`). Positions and round trips are read from the journal again only after a fill.
 */
export class OpsState {
  readonly decisions: Ring<Decision>;
  readonly reports: Ring<ExecReport>;
  readonly fills = new Ring<FillMark>(500);
  readonly history: Ring<EquityPoint>;
  /** 429 answers seen by the API client (fed by the run's response hook). */
  rateLimited = 0;
  private readonly subs: Subscription[] = [];
  private trades: { roundTrips: JournalRoundTrip[]; positions: StrategyPosition[]; days: DailyPnl[] } | undefined;

  constructor(
    private readonly run: OpsRun,
    private readonly options: OpsStateOptions = {},
  ) {
    this.decisions = new Ring(options.decisionsCapacity ?? 200);
    this.reports = new Ring(200);
    this.history = new Ring(options.historyCapacity ?? 3_600);
    for (const f of run.journal.strategyFills().slice(-this.fills.capacity)) {
      this.fills.push({
        at: f.at,
        market: f.market,
        side: f.side,
        price: f.price,
        amount: f.amount,
        refId: f.refId,
        strategy: f.strategy,
        commission: f.commission,
        commissionAsset: f.commissionAsset,
        ...(f.exitReason && { exitReason: f.exitReason }),
      });
    }
    this.subs.push(run.kernel.decisions$.subscribe((d) => this.decisions.push(d)));
    this.subs.push(run.kernel.reports$.subscribe((r) => this.onReport(r)));
  }

  close(): void {
    for (const s of this.subs.splice(0)) s.unsubscribe();
  }

  private onReport(r: ExecReport): void {
    this.reports.push(r);
    if (r.kind === 'filled' || r.kind === 'quote-executed') this.trades = undefined;
    if (r.kind === 'filled')
      this.fills.push({
        at: r.at,
        market: r.market,
        side: r.side,
        price: r.price,
        amount: r.amount,
        refId: r.refId,
        commission: r.commission,
        commissionAsset: r.commissionAsset,
        ...this.intentOf(r.refId),
      });
    if (r.kind === 'quote-executed')
      this.fills.push({
        at: r.at,
        market: r.market,
        side: r.side,
        price: r.price,
        amount: r.baseAmount,
        refId: r.refId,
        commission: '0',
        ...this.intentOf(r.refId),
      });
  }

  /** The strategy and exit reason of the intent behind a fill, as the journal holds it. */
  private intentOf(refId: string): { strategy?: string; exitReason?: string } {
    const row = this.run.journal.get(refId);
    if (row === undefined) return {};
    const i = row.intent;
    const reason = i.kind === 'place-order' || i.kind === 'execute-quote' ? i.exitReason : undefined;
    return { strategy: row.strategy, ...(reason && { exitReason: reason }) };
  }

  /** Round trips, positions and daily P&L per strategy from the journal's fills, read again only after a fill. */
  tradeBook(): { roundTrips: JournalRoundTrip[]; positions: StrategyPosition[]; days: DailyPnl[] } {
    if (this.trades === undefined) {
      const fills = this.run.journal.strategyFills();
      this.trades = { ...tradesFromFills(fills), days: dailyPnl(fills) };
    }
    return this.trades;
  }

  /** Daily P&L per strategy (UTC days, from the journal's fills). */
  daily(): { days: DailyPnl[] } {
    return { days: this.tradeBook().days };
  }

  /** The run's last log records at `level` or above, newest first (none when the run keeps no tail). */
  log(level: LogLevel, limit?: number): { level: LogLevel; records: LogRecord[] } {
    return { level, records: this.options.logTail?.records(level, limit) ?? [] };
  }

  /** The run's config, secrets hidden. */
  config(): unknown {
    return this.options.config ?? {};
  }

  /**
   * How trading stands: `running`, `halted` (by an operator alone) or `kill-switch` (any other cause
   * holds: a loss or drawdown limit, a ref_id conflict, orphans at start…), with every active cause,
   * its reason, how it is lifted and whether reducing orders still pass.
   */
  haltState(): HaltState {
    const ks = this.run.kernel.gate.killSwitch;
    const causes = ks.causes;
    if (causes.length === 0) return { state: 'running', causes: [] };
    const state = causes.every((c) => c.kind === 'operator') ? 'halted' : 'kill-switch';
    return { state, reason: ks.tripped ?? '', allowsReducing: ks.allowsReducing, causes };
  }

  /** P&L per strategy (realized plus unrealized at the mid, summed over its markets), full precision. */
  strategyPnl(): Record<string, string> {
    const out: Record<string, Dec> = {};
    for (const s of this.run.strategies) out[s.name] = new D(0);
    for (const p of this.tradeBook().positions) {
      const v = positionView(this.run, p);
      out[p.strategy] = (out[p.strategy] ?? new D(0)).plus(v.pnl as string);
    }
    return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.toFixed()]));
  }

  /** Takes one equity sample (the server calls this each second while it runs). */
  sample(): EquityPoint {
    const view = this.run.view();
    const mids: Record<string, number> = {};
    for (const m of view.markets) if (m.mid !== undefined) mids[m.market] = m.mid;
    const point: EquityPoint = {
      at: view.at,
      ...(view.equity !== undefined && { equity: view.equity }),
      ...(view.pnl !== undefined && { pnl: view.pnl }),
      strategies: this.strategyPnl(),
      mids,
    };
    this.history.push(point);
    return point;
  }

  status(): Record<string, unknown> {
    const v = this.run.view();
    return {
      at: v.at,
      startedAt: v.startedAt,
      environment: v.environment,
      venue: v.venue,
      equityAsset: v.equityAsset ?? 'USD',
      equity: v.equity,
      startEquity: v.startEquity,
      pnl: v.pnl,
      ...shown(v),
      trading: this.haltState(),
      ...(v.journalFailure !== undefined && { journalFailure: v.journalFailure }),
      counters: v.counters,
      denials: Object.fromEntries(Object.entries(this.run.kernel.gate.stats()).filter(([k]) => k !== 'approve')),
      markets: v.markets,
      stoppedStrategies: v.stoppedStrategies,
      pausedStrategies: this.run.kernel.gate.pauses.list().filter((p) => this.run.strategies.some((x) => x.name === p.strategy)),
      ...(v.venueUnreachableSince !== undefined && { venueUnreachableSince: v.venueUnreachableSince }),
      orphans: v.orphans ?? [],
    };
  }

  strategies(): Record<string, unknown>[] {
    const pnl = this.strategyPnl();
    const positions = this.tradeBook().positions;
    const counts = new Map<string, { intents: number; approved: number; denied: number }>();
    for (const d of this.decisions.list()) {
      const c = counts.get(d.intent.strategy) ?? { intents: 0, approved: 0, denied: 0 };
      c.intents++;
      if (d.kind === 'approve') c.approved++;
      else c.denied++;
      counts.set(d.intent.strategy, c);
    }
    const pauses = this.run.kernel.gate.pauses;
    return this.run.strategies.map((s) => ({
      name: s.name,
      markets: [...s.markets],
      params: s.params,
      state: s.stopped !== undefined ? 'stopped' : pauses.get(s.name) ? 'paused' : 'running',
      ...(s.stopped !== undefined && { stopped: s.stopped }),
      ...(pauses.get(s.name) && { paused: pauses.get(s.name) }),
      pnl: pnl[s.name],
      pnlShown: formatAmount(pnl[s.name] ?? '0', this.run.view().equityAsset ?? 'USD'),
      recentDecisions: counts.get(s.name) ?? { intents: 0, approved: 0, denied: 0 },
      positions: positions.filter((p) => p.strategy === s.name).map((p) => positionView(this.run, p)),
    }));
  }

  positions(): Record<string, unknown> {
    const v = this.run.view();
    const book = this.tradeBook();
    return {
      balances: balancesView(this.run, v.balances),
      transferLimits: transferLimitsView(this.run),
      positions: book.positions.map((p) => positionView(this.run, p)),
      roundTrips: book.roundTrips.slice(-50).map((t) => roundTripView(this.run, t)),
    };
  }

  orders(): Record<string, unknown> {
    return {
      open: openOrders(this.run),
      fills: this.fills
        .list(50)
        .reverse()
        .map((f) => fillView(this.run, f)),
    };
  }

  decisionList(limit = 100): Record<string, unknown>[] {
    return this.decisions.list(limit).reverse().map(decisionView);
  }

  reportList(limit = 50): Record<string, unknown>[] {
    return this.reports.list(limit).reverse().map(reportView);
  }

  /**
   * How trading stands, what the loss rules measure from (the UTC day's opening equity, the drawdown's
   * peak, the equity last marked), and decisions by code.
   */
  risk(): Record<string, unknown> {
    const ks = this.run.kernel.gate.killSwitch;
    const marks = ks.marks();
    const last = ks.lastMarked;
    return {
      trading: this.haltState(),
      killSwitch: { ...marks, ...(last && { lastMarkedEquity: last.equity, lastMarkedAt: last.at }) },
      denials: this.run.kernel.gate.stats(),
    };
  }

  quotes(): Record<string, unknown> {
    return quotesView(this.run);
  }

  health(): Record<string, unknown> {
    return healthView(this.run, this.rateLimited);
  }

  /** Everything the dashboard draws, in one object (sent on connect and each second). */
  /**
   * What the price charts draw beyond mids and fills: each market's candles of its shortest declared
   * timeframe (the latest CHART_BARS, rows of [time, open, high, low, close, volume]; none for a market
   * no strategy takes bars of) and the strategies' plotted series (the latest CHART_PLOT_POINTS each).
   */
  charts(): { bars: Array<{ market: string; timeframe: string; rows: number[][] }>; plots: PlotSeries[] } {
    const feed = this.run.kernel.engine.barFeed;
    const bars = (feed?.shortest() ?? []).map(({ market, timeframe }) => ({
      market,
      timeframe,
      rows: (feed!.series(market, timeframe)?.latest(CHART_BARS) ?? []).map((b) => [b.time, b.open, b.high, b.low, b.close, b.volume]),
    }));
    return { bars, plots: this.run.kernel.plots.snapshot(CHART_PLOT_POINTS) };
  }

  snapshot(): Record<string, unknown> {
    return {
      status: this.status(),
      strategies: this.strategies(),
      positions: this.positions(),
      orders: this.orders(),
      decisions: this.decisionList(30),
      daily: this.daily()
        .days.slice(-60)
        .map((d) => ({ ...d, realizedShown: formatAmount(d.realized, d.quote), feesShown: formatAmount(d.fees, d.quote) })),
      quotes: this.quotes(),
      health: this.health(),
    };
  }
}

/** Equity, start equity and P&L at the equity asset's precision, for people. */
function shown(v: RunView): Record<string, string> {
  const asset = v.equityAsset ?? 'USD';
  const out: Record<string, string> = {};
  if (v.equity !== undefined) out.equityShown = formatAmount(v.equity, asset);
  if (v.startEquity !== undefined) out.startEquityShown = formatAmount(v.startEquity, asset);
  if (v.pnl !== undefined) out.pnlShown = formatAmount(v.pnl, asset);
  return out;
}
