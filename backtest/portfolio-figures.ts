/**
 * A portfolio backtest's figures per strategy: P&L attributed from each strategy's own position (the
 * kernel's PositionBook, kept from that strategy's own fills), fees, round trips, its decisions; and
 * the correlation of the strategies' daily P&L changes (their daily returns on fixed capital).
 */
import { D, type MarketSymbol } from '../src/core/index.js';
import type { PositionBook } from '../src/engine/positions.js';
import type { StrategyPosition } from '../src/exec/journal-trades.js';

/** A strategy's decisions: intents decided, approved, and denied by code. */
export interface StrategyCounts {
  decided: number;
  approved: number;
  readonly denials: Record<string, number>;
}

export interface StrategyFigures {
  readonly name: string;
  readonly plugin: string;
  readonly markets: readonly MarketSymbol[];
  readonly decided: number;
  readonly approved: number;
  readonly denials: Readonly<Record<string, number>>;
  /** P&L of what it sold, against its average cost, fees included (quote asset). */
  readonly realizedPnl: string;
  /** Its open position at each market's last price less its cost. */
  readonly unrealizedPnl: number;
  readonly pnl: number;
  readonly fees: string;
  readonly roundTrips: number;
  readonly wins: number;
  /** What it holds at the end, per market it trades. */
  readonly positions: readonly { readonly market: MarketSymbol; readonly amount: string; readonly averageCost: string | null }[];
}

interface Named {
  readonly name: string;
  readonly definition: { readonly name: string };
  readonly markets: readonly MarketSymbol[];
}

/** One strategy's figures at the end of the replay (`lastPrice`: each market's last point). */
export function strategyFigures(
  s: Named,
  positions: PositionBook,
  counts: StrategyCounts,
  lastPrice: (m: MarketSymbol) => number,
): StrategyFigures {
  let realized = new D(0);
  let fees = new D(0);
  const listed = positions.list().filter((p) => p.strategy === s.name);
  const unrealized = openPnl(listed, lastPrice);
  const held = s.markets.map((market) => {
    const p = positions.view(s.name, market);
    realized = realized.plus(p.realizedPnl);
    fees = fees.plus(p.fees);
    return {
      market,
      amount: p.amount.toFixed(),
      averageCost: p.averageCost === undefined ? null : p.averageCost.toDecimalPlaces(8).toFixed(),
    };
  });
  return {
    name: s.name,
    plugin: s.definition.name,
    markets: s.markets,
    decided: counts.decided,
    approved: counts.approved,
    denials: { ...counts.denials },
    realizedPnl: realized.toFixed(),
    unrealizedPnl: unrealized,
    pnl: realized.toNumber() + unrealized,
    fees: fees.toFixed(),
    roundTrips: listed.reduce((n, p) => n + p.roundTrips, 0),
    wins: listed.reduce((n, p) => n + p.wins, 0),
    positions: held,
  };
}

/** Each strategy's P&L (realized plus open at the last prices) sampled at each UTC day's end. */
export class DailyPnl {
  private readonly samples: number[][];

  constructor(
    private readonly strategies: readonly Named[],
    private readonly positions: PositionBook,
    private readonly lastPrice: (m: MarketSymbol) => number,
  ) {
    this.samples = strategies.map(() => [0]);
  }

  /** Takes the day's closing P&L of every strategy (called once a day: not on the per-point path). */
  sample(): void {
    const all = this.positions.list();
    this.strategies.forEach((s, i) => {
      const own = all.filter((p) => p.strategy === s.name);
      this.samples[i]!.push(own.reduce((sum, p) => sum + Number(p.realizedPnl), 0) + openPnl(own, this.lastPrice));
    });
  }

  /** The Pearson correlation of the daily P&L changes, strategy by strategy (null where one never moved). */
  correlation(): { readonly days: number; readonly matrix: (number | null)[][] } {
    const changes = this.samples.map((xs) => xs.slice(1).map((x, i) => x - xs[i]!));
    return { days: changes[0]?.length ?? 0, matrix: changes.map((a) => changes.map((b) => pearson(a, b))) };
  }
}

/** The open positions at the last prices less what they cost (a market without a price yet counts nothing). */
function openPnl(own: readonly StrategyPosition[], lastPrice: (m: MarketSymbol) => number): number {
  let pnl = 0;
  for (const p of own) {
    const price = lastPrice(p.market as MarketSymbol);
    if (Number(p.position) > 0 && price === price) pnl += Number(p.position) * price - Number(p.costBasis);
  }
  return pnl;
}

/** Pearson's r of two equally long series; null when either has no variance. */
export function pearson(a: readonly number[], b: readonly number[]): number | null {
  const n = Math.min(a.length, b.length);
  if (n < 2) return null;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  return saa === 0 || sbb === 0 ? null : sab / Math.sqrt(saa * sbb);
}
