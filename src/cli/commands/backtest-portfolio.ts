/**
 * `tradeloop backtest --config FILE` (or with `./config/default.yaml`): every strategy of the config on
 * every market it declares, on one account, with the config's limits, allocations and fee (see
 * backtest/portfolio.ts). Data per market: `--data MARKET=FILE` (a bare `--data FILE` when the config
 * trades one market), or the history cache for `--from/--to`. Prints a summary (warnings first), or
 * one JSON line with `--json`; `--out DIR` writes the same as CSV files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildManifest, manifestRows, manifestToJson } from '../../../backtest/assumptions.js';
import { parseTime } from '../../../backtest/cli-input.js';
import { checkIncrement, loadCached } from '../../../backtest/history-cache.js';
import type { ResolvedLimits } from '../../../backtest/limits.js';
import type { MarketSeries } from '../../../backtest/merge.js';
import { runPortfolioBacktest, type PortfolioRun, type PortfolioStrategy } from '../../../backtest/portfolio.js';
import { loadPortfolioStrategies } from '../../../backtest/optimize/portfolio-job.js';
import { loadDataFile } from '../../../backtest/recorded-series.js';
import { loadPriceFile } from '../../../backtest/price-column.js';
import type { IntrabarRule } from '../../fills/point/bar-range.js';
import { isRecordingFile } from '../../venue/polling/recording-format.js';
import { barFillRule, DEFAULT_FILL_RULE, duration } from '../../../backtest/report/report.js';
import { trapWarnings } from '../../../backtest/traps.js';
import type { DataFlags } from '../../../backtest/data-source.js';
import { D, fallbackPriceDecimals, InputError, type MarketSymbol } from '../../core/index.js';
import { type CliContext, writeLine } from '../context.js';
import { formatTable } from '../table.js';

export interface PortfolioFlags extends Omit<DataFlags, 'data'> {
  readonly data?: readonly string[];
  readonly strategy?: string;
  readonly json?: boolean;
  readonly out?: string;
}

/** The config's strategies (narrowed to `--strategy NAME` when given), in config order, with their allocations and holdings. */
export async function portfolioStrategies(resolved: ResolvedLimits, only: string | undefined): Promise<PortfolioStrategy[]> {
  const loaded = await loadPortfolioStrategies({ entries: resolved.located.config.strategies, file: resolved.file });
  return only === undefined ? loaded : loaded.filter((s) => s.name === only);
}

/** The markets in the config's order: the first strategy's markets, then each next strategy's new ones (the merge's tie rule). */
export function marketOrder(strategies: readonly PortfolioStrategy[]): MarketSymbol[] {
  return [...new Set(strategies.flatMap((s) => s.markets))];
}

/** Loads one series per market from the flags; every problem names the flag and the fix. */
export async function loadPortfolioData(flags: PortfolioFlags, markets: readonly MarketSymbol[]): Promise<MarketSeries[]> {
  if (flags.market !== undefined)
    throw new InputError(
      '--market',
      `a config backtest replays the config's markets (${markets.join(', ')}): give --data MARKET=FILE per market, or --from/--to for the history cache, and drop --market`,
    );
  const given = flags.data ?? [];
  if (given.length === 0) {
    const from = parseTime(flags.from, '--from');
    const to = parseTime(flags.to, '--to');
    if (from === undefined && to === undefined)
      throw new InputError(
        '--data',
        `give the prices of each market the config trades: ${markets.map((m) => `--data ${m}=FILE`).join(' ')} (or --from/--to with the history cache)`,
      );
    const increment = checkIncrement(flags.increment);
    return markets.map((market) => ({ market, ...seriesOf(loadCached(flags.dataDir, { market, increment }, from, to)) }));
  }
  if (flags.from !== undefined || flags.to !== undefined)
    throw new InputError('--from', '--from and --to select cached prices; with --data files, trim the files instead');
  const files = new Map<MarketSymbol, string>();
  // one recording of the run holds every market it polled: `--data run.jsonl` gives each of them
  const only = given.length === 1 && !/^([A-Z0-9]{4,12})=/.test(given[0]!) ? given[0]! : undefined;
  if (only !== undefined && markets.length > 1 && isRecordingFile(only)) for (const m of markets) files.set(m, only);
  else
    for (const d of given) {
      const m = /^([A-Z0-9]{4,12})=(.+)$/.exec(d);
      if (m === null && (given.length > 1 || markets.length > 1))
        throw new InputError(
          '--data',
          `${JSON.stringify(d)}: the config trades ${markets.join(', ')}: name the market of each file, e.g. --data ${markets[0]}=${d} (a recording of the run holding every market may be given alone)`,
        );
      const market = (m?.[1] ?? markets[0]!) as MarketSymbol;
      if (files.has(market)) throw new InputError('--data', `${market} is given twice: give one file per market`);
      files.set(market, m?.[2] ?? d);
    }
  const missing = markets.filter((m) => !files.has(m));
  if (missing.length > 0)
    throw new InputError(
      '--data',
      `no data for ${missing.join(', ')}, which the config's strategies trade: add ${missing.map((m) => `--data ${m}=FILE`).join(' ')}`,
    );
  const out: MarketSeries[] = [];
  // in the config's market order (the tie rule), whatever the order of the flags
  for (const market of [...markets, ...[...files.keys()].filter((k) => !markets.includes(k))]) {
    const file = files.get(market)!;
    // an OHLCV file's rows are bars: orders fill inside them, and a bar strategy's bars are the rows
    out.push({
      market,
      ...seriesOf(
        isRecordingFile(file)
          ? await loadDataFile(file, market, flags.priceColumn)
          : loadPriceFile(file, flags.priceColumn, { ohlc: true }),
      ),
    });
  }
  return out;
}

function seriesOf(s: Omit<MarketSeries, 'market'>): Omit<MarketSeries, 'market'> {
  const { times, prices, source, opens, highs, lows, volumes } = s;
  return opens !== undefined && highs !== undefined && lows !== undefined
    ? { times, prices, source, opens, highs, lows, ...(volumes !== undefined && { volumes }) }
    : { times, prices, source };
}

export interface PortfolioOptions {
  readonly strategies: readonly PortfolioStrategy[];
  readonly series: readonly MarketSeries[];
  readonly resolved: ResolvedLimits;
  readonly initial: Record<string, string>;
  readonly feeBps: number;
  readonly slippageBps: number;
  /** `--intrabar`: which extreme of an OHLCV bar came first (default adverse). */
  readonly intrabar?: IntrabarRule;
  readonly onProgress: (done: number, total: number) => void;
}

/** Runs the portfolio and prints (or writes) its report. */
export async function portfolioBacktest(ctx: CliContext, flags: PortfolioFlags, o: PortfolioOptions): Promise<void> {
  const run = await runPortfolioBacktest({
    strategies: o.strategies,
    series: o.series,
    initial: o.initial,
    feeBps: o.feeBps,
    slippageBps: o.slippageBps,
    limits: o.resolved.limits,
    ...(o.intrabar !== undefined && { intrabar: o.intrabar }),
    onProgress: o.onProgress,
    // fills by strategy, round trips, candles and plotted series for report.html
    ...(flags.out !== undefined && { charts: true }),
  });
  const source = o.series.map((s) => `${s.market}: ${s.source}`).join('; ');
  // spacing and gaps of the markets' times together (one time once: the markets' points of one time
  // are one step of the account, not a spacing of 0); the points are every market's
  const bars = o.series.filter((s) => s.opens !== undefined).map((s) => s.market);
  const built = buildManifest({
    // OHLCV rows fill inside their bars; a market of closes alone fills at its next point
    fillModel: {
      name: 'points',
      rule:
        bars.length === 0
          ? DEFAULT_FILL_RULE
          : bars.length === o.series.length
            ? barFillRule(o.intrabar ?? 'adverse')
            : `${bars.join(', ')} (OHLCV rows): ${barFillRule(o.intrabar ?? 'adverse')} The other markets (prices only): ${DEFAULT_FILL_RULE}`,
    },
    feeBps: o.feeBps,
    slippageBps: o.slippageBps,
    source,
    times: distinctTimes(run.times),
    params: {},
    initial: o.initial,
    limits: o.resolved.limits,
    limitsFrom: o.resolved.origins,
  });
  const manifest = { ...built, data: { ...built.data, points: run.times.length } };
  const warnings = [
    ...run.strategies.flatMap((s) => trapWarnings(s.name, s.decided, s.denials)),
    ...run.stopped.map((s) => `strategy stopped: ${s}`),
  ];
  const json = portfolioJson(run, warnings);
  if (flags.out !== undefined) {
    writePortfolioCsv(flags.out, run);
    const { writePortfolioReport } = await import('../../../backtest/report/portfolio-report.js');
    const span =
      run.times.length > 0
        ? `${new Date(run.times[0]!).toISOString()} to ${new Date(run.times[run.times.length - 1]!).toISOString()} · `
        : '';
    writePortfolioReport(flags.out, {
      run,
      series: o.series,
      subtitle: `${span}${json.total.points} points · config ${o.resolved.file ?? "tradeloop's built-in defaults"}`,
      totals: totalRows(json.total),
      manifest: manifestRows(manifest, duration),
      warnings,
    });
  }
  if (flags.json) {
    for (const w of warnings) writeLine(ctx.stderr, `warning: ${w}`);
    writeLine(
      ctx.stdout,
      JSON.stringify({
        ...json,
        config: o.resolved.file ?? null,
        manifest: manifestToJson(manifest),
        ...(flags.out !== undefined && { out: flags.out }),
      }),
    );
  } else {
    writeLine(
      ctx.stdout,
      `portfolio of ${run.strategies.length} strateg${run.strategies.length === 1 ? 'y' : 'ies'} on ${run.markets.length} market${run.markets.length === 1 ? '' : 's'} · config ${o.resolved.file ?? "tradeloop's built-in defaults"}`,
    );
    for (const w of warnings) writeLine(ctx.stdout, `warning: ${w}`);
    writeLine(ctx.stdout, formatTable(['total', 'value'], totalRows(json.total)));
    writeLine(
      ctx.stdout,
      formatTable(
        ['strategy', 'markets', 'P&L', 'realized', 'open', 'fees', 'round trips', 'wins', 'intents', 'denied'],
        json.strategies.map((s) => [
          s.name,
          s.markets.join(' '),
          fix(s.pnl),
          money(s.realized_pnl, json.total.quote),
          fix(s.unrealized_pnl),
          money(s.fees, json.total.quote),
          String(s.round_trips),
          String(s.wins),
          String(s.intents),
          denied(s.denials),
        ]),
      ),
    );
    writeLine(
      ctx.stdout,
      formatTable(
        ['market', 'points', 'last price', 'held', 'exposure', 'peak exposure', 'fees'],
        json.markets.map((m) => [
          m.market,
          String(m.points),
          String(m.last_price),
          m.held,
          fix(m.exposure),
          fix(m.peak_exposure),
          money(m.fees, json.total.quote),
        ]),
      ),
    );
    if (run.strategies.length > 1)
      writeLine(
        ctx.stdout,
        formatTable(
          ['daily P&L correlation', ...json.correlation.strategies],
          json.correlation.matrix.map((row, i) => [json.correlation.strategies[i]!, ...row.map((r) => (r === null ? '–' : r.toFixed(2)))]),
        ),
      );
    writeLine(
      ctx.stdout,
      formatTable(
        ['assumption', 'value'],
        manifestRows(manifest, duration).filter(([k]) => k !== 'Warm-up'),
      ),
    );
    if (flags.out !== undefined)
      writeLine(ctx.stdout, `report: ${flags.out}/report.html (strategies.csv, markets.csv, equity.csv, correlation.csv beside it)`);
  }
  if (run.stopped.length > 0) ctx.exitCode = 1;
}

/** Ascending times with each time once. */
function distinctTimes(times: Float64Array): Float64Array {
  const out = new Float64Array(times.length);
  let n = 0;
  for (let i = 0; i < times.length; i++) if (n === 0 || times[i] !== out[n - 1]) out[n++] = times[i]!;
  return out.subarray(0, n);
}

/** The totals as label/value rows (the summary's table and report.html's). */
function totalRows(t: ReturnType<typeof portfolioJson>['total']): [string, string][] {
  return [
    ['Initial equity', fix(t.initial_equity)],
    ['Final equity', fix(t.final_equity)],
    ['Return', `${fix(t.return_pct)} %`],
    ['Max drawdown', `${fix(t.max_drawdown_pct)} %`],
    ['Fees', money(t.fees, t.quote)],
    ['Points', String(t.points)],
  ];
}

function denied(d: Readonly<Record<string, number>>): string {
  const e = Object.entries(d);
  return e.length === 0 ? '0' : e.map(([k, v]) => `${k} ${v}`).join(', ');
}

function fix(n: number): string {
  return n.toFixed(2);
}

/** An amount of the quote asset shown at its precision (the JSON and CSV files keep every digit). */
function money(value: string, quote: string): string {
  return new D(value).toFixed(fallbackPriceDecimals(quote));
}

/** The run as `--json` prints it (and the CSV files carry). */
export function portfolioJson(run: PortfolioRun, warnings: readonly string[]) {
  const n = run.equity.length;
  const initial = n > 0 ? run.equity[0]! : 0;
  const final = n > 0 ? run.equity[n - 1]! : 0;
  let peak = 0;
  let maxDd = 0;
  for (let i = 0; i < n; i++) {
    peak = Math.max(peak, run.equity[i]!);
    if (peak > 0) maxDd = Math.max(maxDd, (1 - run.equity[i]! / peak) * 100);
  }
  return {
    warnings,
    total: {
      quote: run.quote,
      points: n,
      initial_equity: initial,
      final_equity: final,
      return_pct: initial > 0 ? (final / initial - 1) * 100 : 0,
      max_drawdown_pct: maxDd,
      fees: run.feesPaid,
      final_balances: run.finalBalances,
      decisions: run.decisions,
      orders: run.orders,
    },
    strategies: run.strategies.map((s) => ({
      name: s.name,
      plugin: s.plugin,
      markets: s.markets,
      pnl: s.pnl,
      realized_pnl: s.realizedPnl,
      unrealized_pnl: s.unrealizedPnl,
      fees: s.fees,
      round_trips: s.roundTrips,
      wins: s.wins,
      intents: s.decided,
      approved: s.approved,
      denials: s.denials,
      positions: s.positions,
    })),
    markets: run.markets.map((m) => ({
      market: m.market,
      points: m.points,
      last_price: m.lastPrice,
      held: m.held,
      exposure: m.exposure,
      peak_exposure: m.peakExposure,
      fees: m.fees,
    })),
    correlation: { strategies: run.strategies.map((s) => s.name), days: run.correlation.days, matrix: run.correlation.matrix },
    elapsed_ms: Math.round(run.elapsedMs * 10) / 10,
  };
}

/** strategies.csv, markets.csv, equity.csv and correlation.csv: the same figures as `--json`. */
function writePortfolioCsv(out: string, run: PortfolioRun): void {
  mkdirSync(out, { recursive: true });
  const j = portfolioJson(run, []);
  const csv = (rows: (string | number | null)[][]): string =>
    `${rows.map((r) => r.map((v) => (v === null ? '' : String(v))).join(',')).join('\n')}\n`;
  writeFileSync(
    join(out, 'strategies.csv'),
    csv([
      [
        'strategy',
        'plugin',
        'markets',
        'pnl',
        'realized_pnl',
        'unrealized_pnl',
        'fees',
        'round_trips',
        'wins',
        'intents',
        'approved',
        'denials',
      ],
      ...j.strategies.map((s) => [
        s.name,
        s.plugin,
        s.markets.join(' '),
        s.pnl,
        s.realized_pnl,
        s.unrealized_pnl,
        s.fees,
        s.round_trips,
        s.wins,
        s.intents,
        s.approved,
        denied(s.denials),
      ]),
    ]),
  );
  writeFileSync(
    join(out, 'markets.csv'),
    csv([
      ['market', 'points', 'last_price', 'held', 'exposure', 'peak_exposure', 'fees'],
      ...j.markets.map((m) => [m.market, m.points, m.last_price, m.held, m.exposure, m.peak_exposure, m.fees]),
    ]),
  );
  writeFileSync(
    join(out, 'correlation.csv'),
    csv([['strategy', ...j.correlation.strategies], ...j.correlation.matrix.map((row, i) => [j.correlation.strategies[i]!, ...row])]),
  );
  const lines = ['time,equity'];
  for (let i = 0; i < run.times.length; i++) lines.push(`${new Date(run.times[i]!).toISOString()},${run.equity[i]!}`);
  writeFileSync(join(out, 'equity.csv'), `${lines.join('\n')}\n`);
}
