/**
 * The divergence report: re-runs the strategies of a recorded live or paper run on its own
 * recording (what its header says ran: strategies, params, plugin hashes, risk limits, fee), through
 * the same kernel, and compares decision by decision with what the run's journal says happened.
 * The strategies of a run replay together, on one account as they ran (`replayTogether`): on the
 * book model when they trade one market whose books the recording holds, else on the point model (a
 * portfolio replay of every market, merged by time); only strategies on several markets with books
 * replay each alone, as the book model replays one market. The replay's decisions go into a journal
 * of their own, read back by the same reader as the live one, then paired per strategy
 * (divergence-match.ts) and compared (divergence-compare.ts).
 *
 * Drift is the absolute difference between the live P&L and the replay's, in the quote asset: each
 * side's P&L is the quote its fills moved plus the base they moved valued at the recording's last
 * mark (so an open position counts at the same price on both sides).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { D, splitMarket, type Dec } from '../../src/core/index.js';
import { Journal } from '../../src/exec/journal.js';
import { GAP_FACTOR, medianSpacing } from '../assumptions.js';
import {
  compareStrategy,
  contribution,
  type DataGap,
  type Difference,
  type DifferenceCause,
  type DifferenceKind,
  type StrategyDifference,
} from './compare.js';
import { readJournalDecisions, type DecisionRecord } from './journal.js';
import { loadDivergenceInputs, type DivergenceInputs, type ReplayStrategy } from './inputs.js';
import { alignDecisions } from './match.js';
import { runRecordedBookBacktest } from '../book-run.js';
import { pointModelBarInputs } from '../recorded-bars.js';
import { recordingHasBooks } from '../recorded-market.js';
import { loadRecordedSeries, type WarmUpSource } from '../recorded-series.js';
import { runPortfolioBacktest } from '../portfolio.js';
import { runBacktest } from '../run.js';
import { barsOf } from '../../src/strategy/define.js';

export interface DivergenceOptions {
  readonly recording: string;
  readonly journal: string;
  /** Where the run was started: plugin paths in the header resolve against it. */
  readonly cwd: string;
  /** Starting balances when the recording holds no balances response. */
  readonly initial: Readonly<Record<string, string>>;
  /** Decision-to-venue latency of the book replay, ms (default 0). */
  readonly latencyMs?: number;
  /** Decisions further apart than this are not the same act; fills further apart differ in time (default 1000). */
  readonly toleranceMs?: number;
}

/** One strategy's side by side figures. */
export interface StrategyComparison {
  readonly name: string;
  readonly market: string;
  readonly quote: string;
  readonly fillModel: 'book' | 'points';
  readonly live: SideFigures;
  readonly replay: SideFigures;
  /** Decisions paired as the same act (whether or not they then differ). */
  readonly paired: number;
  readonly mark: Dec;
}

export interface SideFigures {
  readonly decisions: number;
  readonly denials: number;
  readonly fills: number;
  readonly pnl: Dec;
}

export interface DivergenceReport {
  readonly recording: string;
  readonly journal: string;
  readonly inputs: DivergenceInputs;
  readonly toleranceMs: number;
  readonly latencyMs: number;
  readonly strategies: readonly StrategyComparison[];
  readonly differences: readonly Difference[];
  /** Summed cost (live minus replay P&L) per quote asset, by kind of difference and by cause. */
  readonly costByKind: Readonly<Record<string, Readonly<Partial<Record<DifferenceKind, Dec>>>>>;
  readonly costByCause: Readonly<Record<string, Readonly<Partial<Record<DifferenceCause, Dec>>>>>;
  /** |live P&L − replay P&L| per quote asset. */
  readonly drift: Readonly<Record<string, Dec>>;
  readonly gaps: readonly DataGap[];
  readonly notes: readonly string[];
}

/** Builds the report (see the file's note); throws InputError on a recording or journal it cannot use. */
export async function buildDivergenceReport(o: DivergenceOptions): Promise<DivergenceReport> {
  const toleranceMs = o.toleranceMs ?? 1000;
  const latencyMs = o.latencyMs ?? 0;
  const inputs = await loadDivergenceInputs(o.recording, o.cwd, o.initial);
  const from = Math.min(inputs.run.startedAt ?? inputs.span.first, inputs.span.first);
  const liveAll = readJournalDecisions(o.journal, { from, to: inputs.span.last + toleranceMs });
  const notes = inputNotes(inputs, liveAll);
  const work = mkdtempSync(join(tmpdir(), 'tradeloop-divergence-'));
  const strategies: StrategyComparison[] = [];
  const local: StrategyDifference[] = [];
  let gaps: DataGap[] = [];
  try {
    const together = await replayTogether(inputs, o.recording, join(work, 'replay-all.sqlite'), latencyMs);
    if (inputs.strategies.length > 1)
      notes.push(
        together === undefined
          ? "each strategy is replayed alone: they trade several markets and the recording holds books, which the book model replays one market at a time; live they shared one account, so a balance one used is free in the other's replay"
          : `the ${inputs.strategies.length} strategies are replayed together on one account, as they ran`,
      );
    for (const [k, s] of inputs.strategies.entries()) {
      const replayed = together?.get(s.name) ?? (await replayStrategy(s, inputs, o.recording, join(work, `replay-${k}.sqlite`), latencyMs));
      gaps = replayed.gaps;
      const live = liveAll.filter((d) => s.journalNames.includes(d.strategy));
      notes.push(...strategyNotes(s, inputs, replayed, live.length, from));
      const one = compareOne(s, live, replayed, { inputs, toleranceMs, latencyMs });
      local.push(...one.differences);
      strategies.push(one.comparison);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const differences = numbered(local);
  return {
    recording: o.recording,
    journal: o.journal,
    inputs,
    toleranceMs,
    latencyMs,
    strategies,
    differences,
    gaps,
    notes,
    costByKind: sumBy(differences, (d) => d.kind),
    costByCause: sumBy(differences, (d) => d.cause),
    drift: driftOf(strategies),
  };
}

/** Pairs and compares one strategy's live and replayed decisions. */
function compareOne(
  s: ReplayStrategy,
  live: readonly DecisionRecord[],
  replayed: Replayed,
  o: { inputs: DivergenceInputs; toleranceMs: number; latencyMs: number },
): { differences: StrategyDifference[]; comparison: StrategyComparison } {
  const pairs = alignDecisions(live, replayed.decisions, o.toleranceMs);
  const paired = pairs.filter((p) => p.live && p.replay);
  const refMap = new Map(paired.map((p) => [p.live!.refId, p.replay!.refId]));
  const differences = compareStrategy(
    s.name,
    pairs,
    {
      market: s.market,
      mark: replayed.mark,
      toleranceMs: o.toleranceMs,
      gaps: replayed.gaps,
      balancesAt: o.inputs.balancesAt,
      liveFillTimes: live.flatMap((d) => d.fills.map((f) => f.at)),
      latencyMs: o.latencyMs,
      recordingEnd: o.inputs.span.last,
    },
    refMap,
  );
  const comparison: StrategyComparison = {
    name: s.name,
    market: s.market,
    quote: splitMarket(s.market).quote,
    fillModel: replayed.fillModel,
    mark: replayed.mark,
    paired: paired.length,
    live: figures(live, s.market, replayed.mark),
    replay: figures(replayed.decisions, s.market, replayed.mark),
  };
  return { differences, comparison };
}

/** What a reader must know about the inputs before trusting the comparison. */
function inputNotes(inputs: DivergenceInputs, liveAll: readonly DecisionRecord[]): string[] {
  const notes: string[] = [];
  const names = new Set(inputs.strategies.flatMap((s) => s.journalNames));
  const foreign = liveAll.filter((d) => !names.has(d.strategy)).length;
  if (foreign > 0)
    notes.push(
      `${foreign} journal decisions of the run's time are not of the recorded strategies (${[...names].join(', ')}) and are left out`,
    );
  if (inputs.initialFrom === 'flag')
    notes.push(
      `the recording holds no balances response: the replay starts from ${Object.entries(inputs.initial)
        .map(([a, v]) => `${v} ${a}`)
        .join(', ')} (--initial; give a paper run on real data its paper.funding)`,
    );
  return notes;
}

function strategyNotes(s: ReplayStrategy, inputs: DivergenceInputs, replayed: Replayed, liveCount: number, from: number): string[] {
  const notes: string[] = [];
  const warmed = inputs.run.warmUp?.points ?? 0;
  if (replayed.fillModel === 'points') notes.push(`${s.name} replays on the point model: the recording holds no books of ${s.market}`);
  // the replay warms as the run did when the recording says how (the header's prices, or its history lines)
  if (warmed > 0 && replayed.warmUpEvents === 0)
    notes.push(
      `${s.name}'s replay starts cold: the run warmed up on ${warmed} points first, and the recording holds none of them, so its first decisions may be live only`,
    );
  else if (replayed.warmUpEvents > 0)
    notes.push(
      `${s.name}'s replay warmed up on ${replayed.warmUpEvents} recorded price(s) (${replayed.warmUpFrom === 'header' ? "the header's warm-up prices" : "the recording's history lines"}), as the run did`,
    );
  // what the replay built the strategy's bars from: the run's trades or its prices, as the run did
  for (const line of replayed.barInputs) notes.push(`${s.name}'s replay: ${line}`);
  if (liveCount === 0 && replayed.decisions.length > 0)
    notes.push(
      `the journal holds no decision of ${s.name} while the recording ran (${new Date(from).toISOString()} to ${new Date(inputs.span.last).toISOString()}): check that it is this run's journal`,
    );
  return notes;
}

interface Replayed {
  readonly decisions: DecisionRecord[];
  readonly fillModel: 'book' | 'points';
  readonly mark: Dec;
  readonly gaps: DataGap[];
  /** Warm-up events the replay gave the strategy before the first recorded event, and where they came from. */
  readonly warmUpEvents: number;
  readonly warmUpFrom: WarmUpSource;
  /** What the replay built the strategy's declared bars from, one line per market (none without bars). */
  readonly barInputs: readonly string[];
}

/** Replays one strategy into a journal file of its own and reads its decisions back. */
async function replayStrategy(
  s: ReplayStrategy,
  inputs: DivergenceInputs,
  recording: string,
  file: string,
  latencyMs: number,
): Promise<Replayed> {
  const base = { definition: s.definition, params: s.params, initial: inputs.initial, feeBps: inputs.feeBps, limits: inputs.limits };
  const book = await recordingHasBooks(recording, s.market);
  let run;
  let barInputs: readonly string[];
  if (book) {
    const journal = new Journal(file);
    try {
      run = await runRecordedBookBacktest({ ...base, path: recording, latencyMs, journal });
      barInputs = run.barInputs;
    } finally {
      journal.close();
    }
  } else {
    run = await runBacktest({ ...base, series: await loadRecordedSeries(recording, s.market), journalFile: file });
    barInputs = pointModelBarInputs(barsOf(s.definition, s.params as never));
  }
  const all = readJournalDecisions(file, { from: -Infinity, to: Infinity }, 'replay journal');
  const last = run.prices[run.prices.length - 1];
  return {
    decisions: all,
    fillModel: book ? 'book' : 'points',
    mark: new D(last === undefined ? 0 : String(last)),
    gaps: gapList(run.times),
    warmUpEvents: run.warmUpEvents ?? 0,
    warmUpFrom: run.warmUpFrom ?? 'none',
    barInputs,
  };
}

/** The lines of a book replay of several strategies that concern `s`'s declared bars. */
function barLinesOf(lines: readonly string[], s: ReplayStrategy): string[] {
  const markets = new Set(barsOf(s.definition, s.params as never).map((n) => n.market));
  return lines.filter((l) => [...markets].some((m) => l.startsWith(`bars of ${m} `)));
}

/**
 * Replays every strategy of a multi-strategy run together, on one account as they ran: on the book
 * model when they all trade one market whose books the recording holds, on the point model (a
 * portfolio replay of every market merged by time, each warmed as the run was) when none of their
 * markets has books. Undefined, so each replays alone, for one strategy, for books on several markets
 * (the book model replays one market), and for markets priced in different quote assets.
 */
async function replayTogether(
  inputs: DivergenceInputs,
  recording: string,
  file: string,
  latencyMs: number,
): Promise<Map<string, Replayed> | undefined> {
  if (inputs.strategies.length < 2) return undefined;
  const markets = [...new Set(inputs.strategies.map((s) => s.market))];
  if (new Set(markets.map((m) => splitMarket(m).quote)).size > 1) return undefined;
  const books = (await Promise.all(markets.map((m) => recordingHasBooks(recording, m)))).some(Boolean);
  if (books && markets.length > 1) return undefined;
  const common = { initial: inputs.initial, feeBps: inputs.feeBps, limits: inputs.limits };
  const each = new Map<string, Omit<Replayed, 'decisions'>>();
  if (books) {
    const [first, ...rest] = inputs.strategies;
    const journal = new Journal(file);
    let run;
    try {
      run = await runRecordedBookBacktest({
        ...common,
        definition: first!.definition,
        name: first!.name,
        params: first!.params,
        alongside: rest.map((s) => ({ name: s.name, definition: s.definition, params: s.params, markets: [s.market] })),
        path: recording,
        latencyMs,
        journal,
      });
    } finally {
      journal.close();
    }
    const last = run.prices[run.prices.length - 1];
    const shared = {
      fillModel: 'book' as const,
      mark: new D(last === undefined ? 0 : String(last)),
      gaps: gapList(run.times),
      warmUpEvents: run.warmUpEvents,
      warmUpFrom: run.warmUpFrom,
    };
    for (const s of inputs.strategies) each.set(s.name, { ...shared, barInputs: barLinesOf(run.barInputs, s) });
  } else {
    const series = await Promise.all(markets.map((m) => loadRecordedSeries(recording, m)));
    const warmUp = series.flatMap((x) => x.warmUp.events).sort((a, b) => a.at - b.at);
    const run = await runPortfolioBacktest({
      ...common,
      strategies: inputs.strategies.map((s) => ({ name: s.name, definition: s.definition, params: s.params, markets: [s.market] })),
      series: series.map((x, k) => ({ market: markets[k]!, times: x.times, prices: x.prices, source: x.source })),
      journalFile: file,
      ...(warmUp.length > 0 && { warmUp }),
    });
    for (const s of inputs.strategies) {
      const k = markets.indexOf(s.market);
      const m = run.markets[k]!;
      each.set(s.name, {
        fillModel: 'points',
        mark: new D(Number.isFinite(m.lastPrice) ? String(m.lastPrice) : 0),
        gaps: gapList(series[k]!.times),
        warmUpEvents: series[k]!.warmUp.events.length,
        warmUpFrom: series[k]!.warmUp.from,
        barInputs: pointModelBarInputs(barsOf(s.definition, s.params as never)),
      });
    }
  }
  const all = readJournalDecisions(file, { from: -Infinity, to: Infinity }, 'replay journal');
  return new Map(inputs.strategies.map((s) => [s.name, { ...each.get(s.name)!, decisions: all.filter((d) => d.strategy === s.name) }]));
}

/** Intervals between recorded times longer than GAP_FACTOR × the median spacing (as the manifest counts them). */
function gapList(times: Float64Array): DataGap[] {
  const spacing = medianSpacing(times);
  if (spacing === null || !(spacing > 0)) return [];
  const out: DataGap[] = [];
  for (let i = 1; i < times.length; i++)
    if (times[i]! - times[i - 1]! > GAP_FACTOR * spacing) out.push({ from: times[i - 1]!, to: times[i]! });
  return out;
}

function figures(ds: readonly DecisionRecord[], market: string, mark: Dec): SideFigures {
  return {
    decisions: ds.length,
    denials: ds.filter((d) => d.decision === 'deny').length,
    fills: ds.reduce((n, d) => n + d.fills.length, 0),
    pnl: ds.reduce((s, d) => s.plus(contribution(d, market, mark)), new D(0)),
  };
}

/** Numbers the differences in time order over all strategies; a consequence points at its strategy's first. */
function numbered(local: readonly StrategyDifference[]): Difference[] {
  const order = local.map((d, k) => ({ d, k })).sort((a, b) => a.d.at - b.d.at || a.k - b.k);
  const index = new Map(order.map((x, n) => [x.k, n + 1]));
  const firstOf = new Map<string, number>();
  local.forEach((d, k) => firstOf.has(d.strategy) || firstOf.set(d.strategy, index.get(k)!));
  return order.map(({ d, k }) => {
    const { inherited, ...rest } = d;
    return { ...rest, index: index.get(k)!, ...(inherited && { follows: firstOf.get(d.strategy)! }) };
  });
}

function sumBy<K extends string>(ds: readonly Difference[], key: (d: Difference) => K): Record<string, Partial<Record<K, Dec>>> {
  const out: Record<string, Partial<Record<K, Dec>>> = {};
  for (const d of ds) {
    const q = (out[d.quote] ??= {});
    q[key(d)] = (q[key(d)] ?? new D(0)).plus(d.cost);
  }
  return out;
}

function driftOf(strategies: readonly StrategyComparison[]): Record<string, Dec> {
  const gap: Record<string, Dec> = {};
  for (const s of strategies) gap[s.quote] = (gap[s.quote] ?? new D(0)).plus(s.live.pnl.minus(s.replay.pnl));
  return Object.fromEntries(Object.entries(gap).map(([q, v]) => [q, v.abs()]));
}
