import { buildManifest, manifestRows, manifestToJson, type AssumptionsManifest } from '../../../backtest/assumptions.js';
import { LazyProgress, parseBps, parseInitial, parseIntrabar, parsePositiveInt } from '../../../backtest/cli-input.js';
import type { ResolvedLimits } from '../../../backtest/limits.js';
import { trapWarnings } from '../../../backtest/traps.js';
import { loadSeries } from '../../../backtest/data-source.js';
import { fetchMissing } from './history-missing.js';
import { metricsToJson } from '../../../backtest/metrics.js';
import { BOOK_FILL_RULE, resolveFillModel } from '../../../backtest/fill-model.js';
import { describeRunInfo } from '../../../backtest/recorded-header.js';
import { pointModelBarInputs } from '../../../backtest/recorded-bars.js';
import { barFillRule, DEFAULT_FILL_RULE, duration, formatMetricRows, writeBacktestReport } from '../../../backtest/report/report.js';
import {
  breakEvenText,
  costTable,
  monteCarloHeading,
  monteCarloTable,
  robustnessToJson,
  type RobustnessReport,
} from '../../../backtest/robustness/report.js';
import { parseRuinPct, parseSeed, runRobustness } from '../../../backtest/robustness/run.js';
import { runBacktest, type BacktestConfig, type BacktestRun, type StopPoint } from '../../../backtest/run.js';
import { LiveClock } from '../../clock/index.js';
import { InputError, splitMarket } from '../../core/index.js';
import type { StrategyFailure } from '../../engine/strategy-failure.js';
import { barsOf, loadStrategy, marketsOf, parseParamString, resolveParams, type StrategyDefinition } from '../../strategy/index.js';
import { isRecordingFile } from '../../venue/polling/recording-format.js';
import { type CliContext, writeLine } from '../context.js';
import { formatTable } from '../table.js';

import type { BacktestFlags } from './backtest.js';

/** What `tradeloop backtest` does once its flags are read (loaded only then: see backtest.ts). */
export async function backtestAction(all: BacktestFlags, ctx: CliContext): Promise<void> {
  // the limits of the config every command finds (--config, ./config/default.yaml, the built-in defaults)
  // (the config's reader, and a portfolio's modules below, load when this run needs them)
  const resolved = (await import('../../../backtest/limits.js')).resolveRiskLimits(all.config);
  // the config's fee (risk.fee_bps, 10 unless the file sets it) unless --fee-bps says otherwise
  const feeBps = parseBps(all.feeBps, '--fee-bps', resolved.limits.fee_bps);
  const slippageBps = parseBps(all.slippageBps, '--slippage-bps', 0);
  const initial = parseInitial(all.initial);
  const intrabar = parseIntrabar(all.intrabar);
  if (isPortfolio(all, resolved)) {
    refuseForPortfolio(all);
    const { loadPortfolioData, marketOrder, portfolioBacktest, portfolioStrategies } = await import('./backtest-portfolio.js');
    const strategies = await portfolioStrategies(resolved, all.strategy);
    await fetchMissing(ctx, all, marketOrder(strategies));
    const series = await loadPortfolioData(all, marketOrder(strategies));
    if (intrabar !== undefined && !series.some((x) => x.opens !== undefined))
      throw new InputError(
        '--intrabar',
        'orders inside a bar: it applies to OHLCV rows (open, high, low, close), and no market here has them: drop the flag',
      );
    const wall = new LiveClock();
    const progress = new LazyProgress(ctx.stderr, () => wall.now(), 'backtest');
    try {
      await portfolioBacktest(ctx, all, {
        strategies,
        series,
        resolved,
        initial,
        feeBps,
        slippageBps,
        ...(intrabar !== undefined && { intrabar }),
        onProgress: (d, t) => progress.update(d, t),
      });
    } finally {
      progress.stop();
    }
    return;
  }
  if (all.strategy === undefined)
    throw new InputError(
      '--strategy',
      'give --strategy NAME (a built-in strategy or a plugin file), or --config FILE to backtest the strategies of a config',
    );
  const flags = { ...all, strategy: all.strategy, data: singleData(all.data) };
  const definition = await loadStrategy(flags.strategy);
  const params = strategyParams(definition, flags);
  const clock = new LiveClock();
  const loadStart = clock.now();
  const markets = marketsOf(definition, params as never);
  // a recording's header says what the recorded run was: shown beside the results, never applied
  // (its readers, the API's decoder and the HTTP client, load for a recording only)
  const recorded =
    flags.data !== undefined && isRecordingFile(flags.data)
      ? { run: await (await import('../../venue/polling/recording-reader.js')).readRecordingHeader(flags.data) }
      : undefined;
  const fill = await resolveFillModel(flags, recorded !== undefined, markets.length === 1 ? markets[0] : undefined);
  // the book model reads the recording itself (its events, not points): no second pass over the file
  if (fill.model === 'points' && flags.market !== undefined) await fetchMissing(ctx, flags, [flags.market]);
  // an OHLCV file's rows are bars: orders fill inside them, and a bar strategy's bars are the rows
  const series = fill.model === 'points' ? await loadSeries(flags, markets, { ohlc: true }) : undefined;
  const loadMs = clock.now() - loadStart;
  if (intrabar !== undefined && series?.opens === undefined)
    throw new InputError(
      '--intrabar',
      `orders inside a bar: it applies to OHLCV rows (open, high, low, close), and ${series?.source ?? flags.data ?? 'this data'} has ${series === undefined ? 'recorded books' : 'prices only'}: drop the flag`,
    );
  const market = params.market === undefined ? undefined : String(params.market);
  checkInitial(initial, market);
  const limits = resolved.limits;
  const robust = robustnessFlags(flags);
  const progress = new LazyProgress(ctx.stderr, () => clock.now(), 'backtest');
  let run: BacktestRun & { readonly fillRule?: string; readonly dataSource?: string; readonly barInputs?: readonly string[] };
  // the fill markers are drawn only in a report; without --out the run keeps its figures only
  const cfg: BacktestConfig | undefined = series && {
    definition,
    params,
    series,
    initial,
    feeBps,
    slippageBps,
    limits,
    figuresOnly: flags.out === undefined,
    // the report draws a bar strategy's candles and the series the strategy plots
    charts: flags.out !== undefined,
    ...(intrabar !== undefined && { intrabar }),
  };
  try {
    run =
      cfg === undefined
        ? await (
            await import('../../../backtest/book-run.js')
          ).runRecordedBookBacktest({
            definition,
            params,
            path: flags.data!,
            initial,
            feeBps,
            latencyMs: fill.latencyMs ?? 0,
            limits,
            charts: flags.out !== undefined,
          })
        : await runBacktest({ ...cfg, onProgress: (d, t) => progress.update(d, t) });
  } finally {
    progress.stop();
  }
  const fillModel =
    fill.model === 'book'
      ? { name: 'book', rule: run.fillRule ?? BOOK_FILL_RULE }
      : {
          name: 'points',
          rule: series !== undefined && series.opens !== undefined ? barFillRule(intrabar ?? 'adverse') : DEFAULT_FILL_RULE,
        };
  const source = series?.source ?? run.dataSource ?? `${flags.data!} (recorded ${run.market} books)`;
  // a recording's replay (either model) warms the strategy on the history the recorded run loaded, as it did live
  const warmedOn = run.warmUpFrom !== undefined ? { warmedOn: { events: run.warmUpEvents ?? 0, from: run.warmUpFrom } } : {};
  // and says what a bar strategy's bars were built from (the run's trades or its prices), as the run's header did
  const bars = run.barInputs ?? (recorded !== undefined ? pointModelBarInputs(barsOf(definition, params as never)) : []);
  const manifest = buildManifest({
    fillModel,
    feeBps,
    slippageBps,
    ...(fill.latencyMs !== undefined && { latencyMs: fill.latencyMs }),
    source,
    times: run.times,
    definition,
    params,
    initial,
    limits,
    limitsFrom: resolved.origins,
    ...warmedOn,
    bars,
  });
  // a limit that denies much of what the strategy wanted is said first, naming the key to change
  const denied = Object.fromEntries(Object.entries(run.denials).map(([code, d]) => [code, d.count]));
  run = {
    ...run,
    warnings: [
      ...trapWarnings(definition.name, run.metrics.points > 0 ? Object.values(run.decisions).reduce((a, b) => a + b, 0) : 0, denied),
      ...run.warnings,
    ],
  };
  // a stopped strategy's figures are of a broken run: resampling them would only dress them up
  const robustness = robust === undefined || run.strategyFailure || cfg === undefined ? undefined : await runRobustness(cfg, run, robust);
  if (robust !== undefined && robustness === undefined)
    writeLine(ctx.stderr, 'note: no robustness figures: the strategy stopped, so its run is not one to resample');
  if (flags.out !== undefined)
    writeReport(flags.out, run, {
      strategy: definition.name,
      params,
      source,
      fillRule: fillModel.rule,
      initial: flags.initial,
      feeBps,
      slippageBps,
      manifest,
      ...(robustness && { robustness }),
    });
  // a run that could decide nothing must not pass for a flat strategy: the summary says so before
  // the figures, and with --json (stdout is for machines) stderr says it too
  if (flags.json) for (const w of run.warnings) writeLine(ctx.stderr, `warning: ${w}`);
  const failure = run.strategyFailure;
  if (flags.json) {
    writeLine(
      ctx.stdout,
      JSON.stringify({
        strategy: definition.name,
        market: run.market,
        ...metricsToJson(run.metrics),
        fees: Number(run.feesPaid),
        elapsed_ms: round(run.elapsedMs),
        load_ms: round(loadMs),
        decisions: run.decisions,
        denials: run.denials,
        orders: run.orders,
        ...(flags.out !== undefined && { out: flags.out }),
        warnings: run.warnings,
        manifest: manifestToJson(manifest),
        ...(robustness && { robustness: robustnessToJson(robustness) }),
        ...(recorded && { recording: recorded.run ?? null }),
        ...(failure && { failure }),
        ...(run.stoppedAt && {
          stopped_at: { points: run.stoppedAt.points, total: run.stoppedAt.total, time: new Date(run.stoppedAt.at).toISOString() },
        }),
      }),
    );
  } else {
    // the error first: the figures that follow are of the run up to it, and say so
    if (failure) writeLine(ctx.stderr, failureText(failure));
    if (run.stoppedAt) writeLine(ctx.stdout, stoppedText(run.stoppedAt));
    printSummary(ctx, run, definition.name, source, flags.out, manifest);
    if (recorded) for (const line of describeRunInfo(recorded.run)) writeLine(ctx.stdout, line);
    if (robustness) printRobustness(ctx, robustness, run.units.quote);
  }
  if (failure) {
    if (flags.json) writeLine(ctx.stderr, failureText(failure));
    ctx.exitCode = 1;
  }
}

/** A config backtest: a config found (flag or project), and no --strategy or the name of one of its strategies. */
function isPortfolio(flags: BacktestFlags, resolved: ResolvedLimits): boolean {
  if (resolved.located.source.kind === 'builtin') return false;
  if (flags.strategy === undefined) return true;
  return resolved.located.config.strategies.some((s) => (s.name ?? s.plugin) === flags.strategy);
}

/** Flags of the single-strategy form a config backtest does not take, refused naming the fix. */
function refuseForPortfolio(flags: BacktestFlags): void {
  const single: Array<[keyof BacktestFlags, string]> = [
    ['params', '--params'],
    ['fillModel', '--fill-model'],
    ['latencyMs', '--latency-ms'],
    ['robustness', '--robustness'],
  ];
  for (const [key, flag] of single)
    if (flags[key] !== undefined)
      throw new InputError(
        flag,
        `applies to a backtest of one strategy (--strategy PLUGIN --data FILE); a config backtest takes its strategies' params from the config: drop the flag`,
      );
}

/** The one --data of the single-strategy form (several, or MARKET=FILE, belong to a config backtest). */
function singleData(data: readonly string[] | undefined): string | undefined {
  if (data === undefined || data.length === 0) return undefined;
  if (data.length > 1)
    throw new InputError(
      '--data',
      'several --data files are a config backtest: give --config FILE (or run in a folder with ./config/default.yaml) whose strategies trade those markets',
    );
  return data[0];
}

function strategyParams(definition: StrategyDefinition, flags: Pick<BacktestFlags, 'params' | 'market'>): Record<string, unknown> {
  const raw = flags.params === undefined ? {} : parseParamString(flags.params);
  if (flags.market !== undefined && 'market' in definition.params.shape) raw.market ??= flags.market;
  return resolveParams(definition, raw, '--params');
}

function checkInitial(initial: Record<string, string>, market: string | undefined): void {
  if (market === undefined) return;
  const { base, quote } = splitMarket(market);
  if (initial[quote] === undefined && initial[base] === undefined) {
    throw new InputError('--initial', `${market} trades ${base} against ${quote}: fund one of them, e.g. --initial ${quote}=10000`);
  }
}

/** The --robustness flags, or undefined without it; the others alone are refused, naming it. */
function robustnessFlags(
  flags: Pick<BacktestFlags, 'robustness' | 'ruinPct' | 'seed' | 'blockLength'>,
): { runs: number; seed: number | string; ruinPct: number; blockLength?: number } | undefined {
  const runs = parsePositiveInt(flags.robustness, '--robustness');
  if (runs === undefined) {
    const stray = (['ruinPct', 'seed', 'blockLength'] as const).find((k) => flags[k] !== undefined);
    if (stray)
      throw new InputError(
        `--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
        'applies to the Monte Carlo of --robustness N; add --robustness 1000 (or drop the flag)',
      );
    return undefined;
  }
  const blockLength = parsePositiveInt(flags.blockLength, '--block-length');
  return { runs, seed: parseSeed(flags.seed), ruinPct: parseRuinPct(flags.ruinPct), ...(blockLength !== undefined && { blockLength }) };
}

function printRobustness(ctx: CliContext, r: RobustnessReport, quote: string): void {
  writeLine(ctx.stdout, monteCarloHeading(r.monteCarlo));
  const mc = monteCarloTable(r.monteCarlo, quote);
  writeLine(ctx.stdout, formatTable(mc.header, mc.rows));
  if (r.costs) {
    writeLine(
      ctx.stdout,
      `cost sensitivity: fee and slippage from 0 to 3× (configured ${r.costs.feeBps} and ${r.costs.slippageBps} bps${r.costs.slippageBps > 0 ? '' : `; slippage in multiples of the fee, ${r.costs.slippageBaseBps} bps`})`,
    );
    const t = costTable(r.costs, quote);
    writeLine(ctx.stdout, formatTable(t.header, t.rows));
    writeLine(ctx.stdout, breakEvenText(r.costs));
  }
}

function writeReport(
  out: string,
  run: BacktestRun,
  info: {
    strategy: string;
    params: Record<string, unknown>;
    source: string;
    fillRule: string;
    initial: string;
    feeBps: number;
    slippageBps: number;
    manifest: AssumptionsManifest;
    robustness?: RobustnessReport;
  },
): void {
  const params = Object.fromEntries(
    Object.entries(info.params).map(([k, v]) => [k, typeof v === 'number' || typeof v === 'boolean' ? v : String(v)]),
  );
  writeBacktestReport(out, {
    strategy: info.strategy,
    market: run.market,
    params,
    source: info.source,
    times: run.times,
    prices: run.prices,
    equity: run.equity,
    trades: run.trades,
    ...(run.exitReasons && { exitReasons: run.exitReasons }),
    fills: run.fills,
    ...(run.candles && { candles: run.candles }),
    ...(run.plots && { plots: run.plots }),
    metrics: run.metrics,
    warnings: run.warnings,
    units: run.units,
    manifest: info.manifest,
    ...(info.robustness && { robustness: info.robustness }),
    assumptions: {
      initial: info.initial,
      feeBps: info.feeBps,
      slippageBps: info.slippageBps,
      fillRule: info.fillRule,
      extra: [['Risk decisions', decisionsText(run)], ...denialLines(run).map((l): [string, string] => ['Denial', l.trim()])],
    },
  });
}

function printSummary(
  ctx: CliContext,
  run: BacktestRun,
  strategy: string,
  source: string,
  out: string | undefined,
  manifest: AssumptionsManifest,
): void {
  writeLine(ctx.stdout, `${strategy} on ${run.market} · ${source}`);
  for (const w of run.warnings) writeLine(ctx.stdout, `warning: ${w}`);
  writeLine(ctx.stdout, formatTable(['metric', 'value'], formatMetricRows(run.metrics, run.units)));
  writeLine(ctx.stdout, formatTable(['assumption', 'value'], manifestRows(manifest, duration)));
  writeLine(ctx.stdout, `risk decisions: ${decisionsText(run)}`);
  const o = run.orders;
  writeLine(
    ctx.stdout,
    `orders: ${o.accepted} accepted, ${o.fills} fills, ${o.cancelled} cancelled, ${o.rejected} rejected, ${o.failed} failed, ${o.openAtEnd} open at the end`,
  );
  for (const line of denialLines(run)) writeLine(ctx.stdout, line);
  writeLine(ctx.stdout, `replayed ${run.metrics.points.toLocaleString('en-US')} points in ${round(run.elapsedMs)} ms`);
  if (out !== undefined) writeLine(ctx.stdout, `report: ${out}/report.html (trades.csv, equity.csv beside it)`);
}

/** One line per denial code: how many, and the reason of the first (the numbers behind it are in --json). */
function denialLines(run: BacktestRun): string[] {
  return Object.entries(run.denials).map(
    ([code, d]) =>
      `  denied ${code} ×${d.count}: ${d.first.message}${d.count > 1 && d.last.message !== d.first.message ? ` (last: ${d.last.message})` : ''}`,
  );
}

function decisionsText(run: BacktestRun): string {
  const entries = Object.entries(run.decisions);
  return entries.length === 0 ? 'no intents' : entries.map(([k, v]) => `${k} ${v}`).join(', ');
}

/**
 * The failure for stderr: one line naming the strategy, the handler and the message, then the first
 * frames of the stack, so the user finds the line of their plugin that threw.
 */
export function failureText(f: StrategyFailure): string {
  const head = `error: strategy ${f.strategy} stopped in ${f.handler}: ${f.message} (it made no decisions after that; fix it and run again)`;
  return [head, ...f.stack.map((frame) => `    ${frame}`)].join('\n');
}

/** What the figures of a stopped run cover: the points up to the failure, of how many, and until when. */
export function stoppedText(s: StopPoint): string {
  return `the figures below cover the run up to the failure: ${s.points.toLocaleString('en-US')} of ${s.total.toLocaleString('en-US')} points, to ${new Date(s.at).toISOString()}`;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
