import { parseBps, parseInitial, parseIntrabar, parsePositiveInt } from '../../../backtest/cli-input.js';
import { OptimizeProgress } from '../../../backtest/optimize/progress.js';
import { loadSeries } from '../../../backtest/data-source.js';
import { resolveRiskLimits } from '../../../backtest/limits.js';
import { parseGrid, type Grid } from '../../../backtest/optimize/grid.js';
import { searchSpace } from '../../../backtest/search/space.js';
import { unitsOf } from '../../../backtest/money-units.js';
import { OPTIMIZE_METRICS, runOptimize, type OptimizeMetric, type OptimizeResult } from '../../../backtest/optimize/optimize.js';
import { optimizeManifest, optimizeRobustness, writeOptimizeReport } from '../../../backtest/robustness/optimize.js';
import { stabilityLines, stabilityToJson } from '../../../backtest/robustness/report.js';
import { manifestToJson } from '../../../backtest/assumptions.js';
import { barFillRule, DEFAULT_FILL_RULE } from '../../../backtest/report/report.js';
import { LiveClock } from '../../clock/index.js';
import { formatAmount, InputError } from '../../core/index.js';
import { marketsOf, parseParamString, resolveParams } from '../../strategy/index.js';
import { type CliContext, writeLine } from '../context.js';
import { formatTable } from '../table.js';
import { parseRedisUrl } from '../../config/redis-url.js';
import { gridRanges, luckLines, luckToJson, optimizeLuck, spaceRanges } from '../../../backtest/luck/report.js';
import { paretoFront, type ParetoPoint } from '../../../backtest/search/pareto.js';
import { marketOrder } from './backtest-portfolio.js';
import { fetchMissing } from './history-missing.js';
import { gridOfSearch, parseSearchFlags, runSearchStudy } from './optimize-search.js';
import {
  checkGridNames,
  checkObjectiveMetric,
  configTarget,
  loadConfigData,
  loadConfigStrategies,
  parseObjective,
  pluginOrConfigHint,
  singleData,
} from './optimize-config.js';

import type { OptimizeFlags } from './optimize.js';

/** What `tradeloop optimize` does once its flags are read (loaded only then: see optimize.ts). */
export async function optimizeAction(flags: OptimizeFlags, ctx: CliContext): Promise<void> {
  // the limits every mode takes: the located config's (--config, ./config/default.yaml, the built-in defaults)
  const resolved = resolveRiskLimits(flags.config);
  const inConfig = configTarget(flags, resolved);
  const objective = parseObjective(flags.objective, inConfig !== undefined);
  const metricText = flags.metric ?? (inConfig !== undefined && objective === 'strategy' ? 'return' : 'sharpe');
  const metrics = metricText.split(',').map((m) => m.trim());
  for (const m of metrics)
    if (!(m in OPTIMIZE_METRICS))
      throw new InputError(
        '--metric',
        `unknown metric ${JSON.stringify(m)}; use one of ${Object.keys(OPTIMIZE_METRICS).join(', ')} (several, comma-separated, give the Pareto front)`,
      );
  if (new Set(metrics).size !== metrics.length) throw new InputError('--metric', `${metricText} names a metric twice; give each once`);
  if (inConfig !== undefined) metrics.forEach((m) => checkObjectiveMetric(objective, m));
  const queue = flags.queue === undefined ? undefined : parseRedisUrl(flags.queue, '--queue');
  if (queue !== undefined && flags.workers !== undefined)
    throw new InputError(
      '--workers',
      'has no effect with --queue: the trials run on `tradeloop worker` processes; start them with `tradeloop worker --queue URL --concurrency N`',
    );
  const search = parseSearchFlags(flags);
  if (search.method === 'grid' && flags.grid === undefined)
    throw new InputError(
      '--grid',
      'required with --search grid: give ranges such as fast=5..30:5,slow=20..100:10, or search the params schema with --search tpe --trials 100',
    );
  const loaded = inConfig === undefined ? undefined : await loadConfigStrategies(flags, resolved, inConfig);
  const definition = loaded ? loaded.target.definition : await pluginOrConfigHint(flags, resolved);
  const space = search.method === 'grid' ? undefined : searchSpace(definition.params, flags.grid);
  let grid: Grid = space
    ? { names: [...space.dimensions.map((d) => d.name), ...Object.keys(space.fixed)], combinations: [space.fixed] }
    : parseGrid(flags.grid!);
  const baseParams = flags.params === undefined ? {} : parseParamString(flags.params);
  if (flags.market !== undefined && 'market' in definition.params.shape && !grid.names.includes('market'))
    baseParams.market ??= flags.market;
  if (loaded) checkGridNames(loaded.target, grid.names);
  const unknown = grid.names.filter((n) => !(n in definition.params.shape));
  if (unknown.length > 0) resolveParams(definition, { ...baseParams, ...Object.fromEntries(unknown.map((n) => [n, 0])) }, '--grid'); // names the unknown parameters
  const first = resolveParams(definition, { ...baseParams, ...grid.combinations[0] }, '--grid'); // unknown names fail here, before any thread starts
  const markets = loaded ? loaded.target.markets : marketsOf(definition, first as never);
  await fetchMissing(ctx, flags, loaded ? marketOrder(loaded.strategies) : flags.market === undefined ? [] : [flags.market]);
  const inside = loaded && (await loadConfigData(flags, resolved, loaded, objective));
  // an OHLCV file's rows are bars: orders fill inside them, as a backtest of the same file fills them
  const series = inside ? inside.first : await loadSeries({ ...flags, data: singleData(flags.data) }, markets, { ohlc: true });
  const intrabar = parseIntrabar(flags.intrabar);
  const bars = inside
    ? inside.portfolio.series.some((s) => s.opens !== undefined)
    : (series as { readonly opens?: Float64Array }).opens !== undefined;
  if (intrabar !== undefined && !bars)
    throw new InputError(
      '--intrabar',
      `orders inside a bar: it applies to OHLCV rows (open, high, low, close), and ${series.source} has prices only: drop the flag`,
    );
  const clock = new LiveClock();
  const progress = new OptimizeProgress(ctx.stderr, {
    label: 'optimize',
    metric: metrics[0] as OptimizeMetric,
    now: () => clock.now(),
    enabled: OptimizeProgress.shownOn(ctx.stderr, flags.json === true),
  });
  const t0 = clock.now();
  // inside a config, its fee (risk.fee_bps) unless --fee-bps says otherwise, as its backtest
  const feeBps = parseBps(flags.feeBps, '--fee-bps', inside ? resolved.limits.fee_bps : 10);
  const config = {
    strategy: inside ? inside.portfolio.file : flags.strategy,
    ...(inside && { portfolio: inside.portfolio }),
    series,
    metric: metrics[0] as OptimizeMetric,
    baseParams,
    workers: parsePositiveInt(flags.workers, '--workers'),
    walkForward: parsePositiveInt(flags.walkForward, '--walk-forward'),
    feeBps,
    slippageBps: parseBps(flags.slippageBps, '--slippage-bps', 0),
    initial: parseInitial(flags.initial),
    limits: resolved.limits,
    ...(intrabar !== undefined && { intrabar }),
    // loaded only here: bullmq and ioredis slow string handling for the whole process (docs/backtest.md)
    ...(queue && { runJobs: (await import('../../queue/cli.js')).queuedRunner(queue, ctx) }),
  };
  let result: OptimizeResult;
  try {
    if (space && search.method !== 'grid') {
      const found = await runSearchStudy(ctx, {
        config,
        space,
        method: search.method,
        trials: search.trials,
        seed: search.seed,
        resume: flags.resume === true,
        queued: queue !== undefined,
        ...(flags.studyDir !== undefined && { studyDir: flags.studyDir }),
        onProgress: (d, t, best) => (progress.offer(best?.score, best?.params ?? {}), progress.update(d, t)),
      });
      if (found === undefined) return; // interrupted: the study is saved, the message written, exit 130
      result = found;
      grid = gridOfSearch(space, found);
    } else
      result = await runOptimize({
        ...config,
        grid,
        onRow: (r) => progress.offer(r.score, r.params),
        onProgress: (d, t) => progress.update(d, t),
      });
  } finally {
    progress.stop();
  }
  const elapsedMs = clock.now() - t0;
  const robust = optimizeRobustness(grid, result, space === undefined);
  const front = metrics.length > 1 ? paretoFront(result.rows, metrics as OptimizeMetric[]) : undefined;
  const luck = optimizeLuck(
    result,
    series.length,
    series.length > 1 ? series.times[series.length - 1]! - series.times[0]! : 0,
    space ? spaceRanges(space) : gridRanges(grid),
  ); // issue 25: stability map, walk-forward efficiency
  const manifest = optimizeManifest({
    definition,
    baseParams,
    grid,
    feeBps,
    slippageBps: parseBps(flags.slippageBps, '--slippage-bps', 0),
    initial: parseInitial(flags.initial),
    limits: resolved.limits,
    limitsFrom: resolved.origins,
    source: series.source,
    times: series.times,
    fillRule: bars ? barFillRule(intrabar ?? 'adverse') : DEFAULT_FILL_RULE,
  });
  const own = objective === 'strategy' && inside !== undefined;
  // a strategy's own figures inside a config have no equity curve, so no Sharpe ratio to deflate
  const notes = luckLines(luck).map((line) =>
    own && line.startsWith('deflated Sharpe ratio: n/a')
      ? "deflated Sharpe ratio: n/a (a strategy's own figures inside a config have no equity curve of their own; --objective portfolio has the account's)"
      : line,
  );
  if (flags.out !== undefined)
    writeOptimizeReport(flags.out, {
      strategy: definition.name,
      source: series.source,
      points: series.length,
      grid,
      result,
      robustness: robust,
      manifest,
      notes,
    });
  if (flags.json)
    writeLine(
      ctx.stdout,
      JSON.stringify({
        strategy: definition.name,
        // inside a config: which of its strategies was tuned, and what ranked it
        ...(inside && { config_strategy: inside.target.name, objective, markets: inside.portfolio.series.map((x) => x.market) }),
        points: series.length,
        elapsed_ms: elapsedMs,
        ...result,
        ...stabilityToJson(robust.map, robust.efficiency),
        luck: luckToJson(luck),
        ...(front && { objectives: metrics, pareto: front }),
        manifest: manifestToJson(manifest),
        ...(flags.out !== undefined && { out: flags.out }),
      }),
    );
  else {
    printTable(ctx, result, grid.names, parsePositiveInt(flags.top, '--top') ?? 20, unitsOf(markets[0] ?? 'BTCUSD').quote, own);
    for (const line of [
      ...stabilityLines(robust.map, robust.efficiency),
      ...notes,
      ...(front ? paretoLines(front, metrics, grid.names) : []),
    ])
      writeLine(ctx.stdout, line);
    writeLine(
      ctx.stdout,
      `${result.combinations} combinations × ${series.length.toLocaleString('en-US')} points on ${result.workers} workers in ${elapsedMs} ms`,
    );
    const stoppedEarly = result.rows.filter((row) => row.pruned).length;
    if (stoppedEarly > 0)
      writeLine(
        ctx.stdout,
        `${stoppedEarly} trials stopped early: their first fold in sample was below the median of the finished trials' (not ranked)`,
      );
    if (flags.out !== undefined) writeLine(ctx.stdout, `report: ${flags.out}/report.html (results.csv beside it)`);
  }
  if (result.combinations > 0 && result.failed === result.combinations) {
    const first = result.rows[0];
    writeLine(
      ctx.stderr,
      `error: every combination failed (${result.failed} of ${result.combinations}), so nothing could be ranked; the first: ${first?.error ?? 'unknown'}`,
    );
    ctx.exitCode = 1;
  }
}

/** The Pareto front in words: one line per trade-off. */
function paretoLines(front: readonly ParetoPoint[], metrics: readonly string[], names: readonly string[]): string[] {
  return [
    `Pareto front over ${metrics.join(', ')} (${front.length} trials no other beats on every one; ${metrics[0]} ranks the table):`,
    ...front.map(
      (p) =>
        `  ${names.map((n) => `${n}=${String(p.params[n])}`).join(',')}  ${metrics.map((m) => `${m} ${fmt(p.values[m] ?? null)}`).join(', ')}${p.rank === null ? '' : `  (rank ${p.rank})`}`,
    ),
  ];
}

/** The columns of the table besides rank and params: the metric first, then what a reader judges it by. */
function columnsOf(key: string, own: boolean): string[] {
  // a strategy's own figures inside a config have no drawdown of their own: its P&L instead
  if (own) return [key, ...['return_pct', 'pnl', 'trades'].filter((c) => c !== key)];
  return [key, ...['return_pct', 'max_drawdown_pct', 'trades'].filter((c) => c !== key)];
}

function printTable(ctx: CliContext, r: OptimizeResult, names: readonly string[], top: number, quote: string, own: boolean): void {
  const walk = r.walkForward !== undefined;
  const key = OPTIMIZE_METRICS[r.metric];
  const columns = columnsOf(key, own);
  const header = ['rank', ...names, ...(walk ? columns.flatMap((c) => [`${c} in`, `${c} out`]) : columns)];
  const ranked = r.rows.filter((row) => row.rank !== null);
  const rows = ranked
    .slice(0, top)
    .map((row) => [
      String(row.rank),
      ...names.map((n) => String(row.params[n])),
      ...(walk
        ? columns.flatMap((c) => [cell(c, row.inSampleMean?.[c], quote), cell(c, row.outOfSampleMean?.[c], quote)])
        : columns.map((c) => cell(c, row.metrics?.[c], quote))),
    ]);
  writeLine(ctx.stdout, formatTable(header, rows));
  if (ranked.length > top) writeLine(ctx.stdout, `… ${ranked.length - top} more ranked rows (--top N shows more, --json all)`);
  if (walk)
    writeLine(
      ctx.stdout,
      `in / out: mean across the ${r.walkForward!.length} folds, in sample (where the choice is made) and out of sample (the next segment)`,
    );
  for (const p of r.walkForward ?? []) {
    const o = p.outOfSample;
    writeLine(
      ctx.stdout,
      `fold ${p.fold}: chose ${names.map((n) => `${n}=${String(p.params[n])}`).join(',')} (in sample ${key} ${fmt(p.inSampleScore)}); out of sample ${key} ${cell(key, o[key], quote)}, return ${cell('return_pct', o.return_pct, quote)} %, drawdown ${cell('max_drawdown_pct', o.max_drawdown_pct, quote)} %, ${cell('trades', o.trades, quote)} trades`,
    );
  }
  const failed = r.rows.filter((row) => row.failed);
  if (failed.length > 0) {
    writeLine(ctx.stdout, `failed: ${failed.length} of ${r.combinations} combinations (not ranked)`);
    for (const row of failed)
      writeLine(ctx.stdout, `  ${names.map((n) => `${n}=${String(row.params[n])}`).join(',')}  failed: ${row.error ?? 'unknown reason'}`);
  }
}

/** One figure for people: money at the quote asset's precision, percentages to 2 places, counts whole, ratios to 3. */
function cell(column: string, v: unknown, quote: string): string {
  const n = num(v);
  if (n === null) return 'n/a';
  if (column === 'final_equity' || column === 'fees' || column === 'pnl') return formatAmount(n, quote);
  if (column === 'trades') return String(Math.round(n * 100) / 100);
  if (column.endsWith('_pct')) return n.toFixed(2);
  return fmt(n);
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function fmt(v: number | null): string {
  return v === null ? 'n/a' : v.toFixed(3);
}
