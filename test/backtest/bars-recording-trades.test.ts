/**
 * A bar strategy's bars in a recording's replay, as the live run built them: a live run on the local
 * sandbox (LiveRun over RestVenue on a test clock, the trades stream on, recording on) builds its 1m
 * and 5m bars from the platform's trades and closes them by its timer; the book model's replay of the
 * recording builds them from the recorded `trades:` responses, each at the time the run received it,
 * and closes them at their ends between the recorded steps. The bars (volume included, which only
 * trades give), the time each was heard and the decisions made on them are the same; the replay says
 * what the bars were built from in the live header's words, and `tradeloop divergence` on the run
 * pairs every decision and says the same. The same recording without its trades builds the bars from
 * the recorded prices, and says so.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runRecordedBookBacktest } from '../../backtest/book-run.js';
import { buildDivergenceReport } from '../../backtest/divergence/divergence.js';
import { TestClock } from '../../src/clock/index.js';
import { parseConfig, RiskLimitsSchema } from '../../src/config/index.js';
import { Journal } from '../../src/exec/index.js';
import { LiveRun, runnersFor, subscriptionsFor, type LoadedStrategy } from '../../src/live/index.js';
import { buildRunInfo } from '../../src/live/recording-run-info.js';
import { silentLogger } from '../../src/log/index.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { loadStrategy, marketsOf, resolveParams, type StrategyDefinition } from '../../src/strategy/index.js';
import { JsonLinesRecorder, PollingMarketSource, RestVenue, streamSettingsFromConfig } from '../../src/venue/index.js';
import { runCli } from '../cli/cli-helpers.js';
import { loggedClient, stepClock, type LoggedClient } from '../support/streams-harness.js';

const START = Date.UTC(2025, 4, 1, 12);
const MIN = 60_000;
/** Simulated time the live run trades: about twenty 1m bars and four 5m bars. */
const RUN_MS = 21 * MIN + 30_000;
const FUNDING = { USD: '100000', BTC: '1' };
const RISK = {
  stale_after_ms: 30_000,
  max_intents_per_minute: 600,
  max_order_notional: '100000',
  price_band_bps: 2_000,
  positions: 'shared',
} as const;

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-bars-rec-'));
afterAll(() => {
  delete (globalThis as { tapeProbeHeard?: string[] }).tapeProbeHeard;
  rmSync(dir, { recursive: true, force: true });
});

const ROOT = resolve(import.meta.dirname, '../..');

/** Where the probe writes the bars it hears (set by the test before each run; unset: nowhere). */
const sink = globalThis as { tapeProbeHeard?: string[] };

/**
 * The probe, as a plugin file (what the recording's header names, so the divergence report loads it):
 * records every bar it hears into `globalThis.tapeProbeHeard` (bar start and end and the engine's
 * clock, ms after START; o/h/l/c; volume), and on each 1m bar that traded more than the one before
 * buys on a rise and sells on a fall: its decisions rest on the volume, which only trades give.
 */
function writeProbe(): string {
  const file = join(dir, 'tape-probe.ts');
  writeFileSync(
    file,
    `import { defineStrategy, z } from ${JSON.stringify(join(ROOT, 'src/index.ts'))};

const START = ${START};

export default defineStrategy({
  name: 'tape-probe',
  description: 'records its bars; trades on volume',
  params: z.object({}),
  markets: ['BTCUSD'],
  needs: ['price', 'book'],
  bars: [
    { market: 'BTCUSD', timeframe: '1m', history: 5 },
    { market: 'BTCUSD', timeframe: '5m', history: 3 },
  ],
  create: () => ({
    onBar(bar, ctx) {
      if (ctx.warmingUp) return undefined;
      (globalThis as { tapeProbeHeard?: string[] }).tapeProbeHeard?.push(
        \`\${bar.timeframe} \${bar.time - START}-\${bar.closeTime - START} o\${bar.open} h\${bar.high} l\${bar.low} c\${bar.close} v\${bar.volume} @\${ctx.now() - START}\`,
      );
      if (bar.timeframe !== '1m') return undefined;
      const before = ctx.bars('BTCUSD', '1m').at(-2);
      if (before === undefined || !(bar.volume > before.volume)) return undefined;
      if (bar.close > bar.open) return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '50' };
      if (bar.close < bar.open) return { kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '0.0005' };
      return undefined;
    },
  }),
});
`,
  );
  return file;
}

interface Live {
  readonly clock: TestClock;
  readonly sandbox: SandboxHandle;
  readonly client: LoggedClient;
  readonly run: LiveRun;
  readonly journal: Journal;
}

let live: Live | undefined;
async function closeLive(): Promise<void> {
  const h = live;
  live = undefined;
  if (h === undefined) return;
  // shutdown cancels through rate limits and backoffs that wait on the test clock
  let stopped = false;
  const stopping = h.run.stop('test over').finally(() => (stopped = true));
  for (let i = 0; i < 600 && !stopped; i++) await stepClock(h.clock, 1_000, 1_000, () => h.client.outstanding() === 0);
  await stopping;
  await h.client.api.close();
  await h.sandbox.close();
  h.journal.close();
}
afterEach(closeLive);

/**
 * The whole live pipeline on a test clock, with the trades stream and the recorder on (see
 * live-harness.ts); the recording's header names the plugin file, the journal is a file.
 */
async function startLive(plugin: string, recording: string, journalFile: string): Promise<Live> {
  const definition: StrategyDefinition = await loadStrategy(plugin);
  const clock = new TestClock(START);
  const sandbox = await startSandbox({ clock, seed: 11, funding: FUNDING });
  const client = loggedClient(clock, {
    apiUrl: sandbox.apiUrl,
    tokenUrl: sandbox.tokenUrl,
    maxRetries: 4,
    baseBackoffMs: 200,
    maxBackoffMs: 2_000,
  });
  const params = resolveParams(definition, {}) as Record<string, unknown>;
  const loaded: LoadedStrategy[] = [{ name: definition.name, definition, params, markets: marketsOf(definition, params as never) }];
  const config = parseConfig({
    streams: {
      // prices and books off the minute (a bar's end falls between two of them); trades on it
      prices_ms: 7_000,
      ticker_ms: 7_000,
      book_ms: 7_000,
      quotes_ms: 7_000,
      trades_ms: 2_000,
      balances_ms: 5_000,
      orders_ms: 5_000,
      warmup_points: 0,
    },
    risk: RISK,
  });
  const profileId = sandbox.sim.profiles.defaultId;
  const settings = streamSettingsFromConfig(config.streams);
  const source = new PollingMarketSource({
    api: client.api,
    clock,
    profileId,
    intervals: settings.intervals,
    alwaysPoll: settings.alwaysPoll,
    recorder: new JsonLinesRecorder(recording, {
      run: buildRunInfo({
        startedAt: START,
        environment: 'local',
        strategies: [{ spec: plugin, name: definition.name, params }],
        riskLimits: config.risk,
        fees: { fee_bps: config.risk.fee_bps },
        cwd: dir,
      }),
    }),
  });
  const journal = new Journal(journalFile);
  const run = new LiveRun({
    clock,
    venue: new RestVenue(client.api, profileId),
    source,
    journal,
    config,
    environment: 'test',
    refPrefix: 'e2e',
    log: silentLogger(),
    strategies: runnersFor(loaded),
  });
  await run.start(subscriptionsFor(loaded));
  return { clock, sandbox, client, run, journal };
}

type Line = { at: number; stream: string; body: { items?: { executed_at?: string }[] } };

function linesOf(path: string): Line[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => JSON.parse(l) as Line);
}

/** Ms after START of the end of the bar a probe line names ("1m 60000-120000 ... @120000"). */
const endOf = (line: string): number => Number(line.split(' ')[1]!.split('-')[1]);
const heardAt = (line: string): number => Number(line.slice(line.lastIndexOf('@') + 1));

describe('bars in the replay of a recording with trades', () => {
  it(
    'are built from the recorded trades as the live run built them: the same bars, heard at the same times, and the same decisions',
    { timeout: 180_000 },
    async () => {
      const recording = join(dir, 'run.jsonl');
      const journalFile = join(dir, 'journal.sqlite');
      const plugin = writeProbe();
      const definition = await loadStrategy(plugin);
      const heardLive: string[] = [];
      sink.tapeProbeHeard = heardLive;
      live = await startLive(plugin, recording, journalFile);
      await stepClock(live.clock, RUN_MS, 1_000, () => live!.client.outstanding() === 0);
      const decidedLive = live.journal
        .intents()
        .reverse()
        .map((r) => ({ at: r.createdAt - START, kind: r.kind, side: r.side ?? undefined }));
      // stopping the run flushes the recording
      await closeLive();

      const lines = linesOf(recording);
      const tradeLines = lines.filter((l) => l.stream === 'trades:BTCUSD');
      expect(tradeLines.filter((l) => (l.body.items ?? []).length > 0).length).toBeGreaterThan(100);
      expect(lines.some((l) => l.stream === 'book:BTCUSD')).toBe(true);
      // trades the run heard after their 1m bar had closed (left out of it live, so in the replay too)
      const heardLate = tradeLines.flatMap((l) =>
        (l.body.items ?? []).filter((t) => Date.parse(t.executed_at!) < Math.floor((l.at - START) / MIN) * MIN + START),
      );
      expect(heardLate.length).toBeGreaterThan(0);
      const lastRecorded = Math.max(...lines.map((l) => l.at)) - START;

      const heardReplay: string[] = [];
      sink.tapeProbeHeard = heardReplay;
      const replay = await runRecordedBookBacktest({
        definition,
        params: {},
        path: recording,
        initial: FUNDING,
        limits: RiskLimitsSchema.parse(RISK),
      });

      // the live run's timer may close one more bar after the recording's last response: those up to it are compared
      const liveUpToRecording = heardLive.filter((l) => endOf(l) <= lastRecorded);
      expect(liveUpToRecording.filter((l) => l.startsWith('5m')).length).toBeGreaterThanOrEqual(4);
      expect(heardReplay).toEqual(liveUpToRecording);
      // each bar heard at its end, never later; and volume, which only trades give
      for (const l of heardReplay) expect(heardAt(l), l).toBe(endOf(l));
      expect(heardReplay.every((l) => !l.includes(' v0 '))).toBe(true);

      const decidedReplay = replay.intents.map((t) => ({ at: t.at - START, kind: t.kind, side: t.side }));
      expect(decidedLive.length).toBeGreaterThan(3);
      expect(decidedReplay).toEqual(decidedLive.filter((d) => d.at <= lastRecorded));
      // the replay says what its bars were built from, in the live run's header's words
      expect(replay.barInputs).toEqual([
        "bars of BTCUSD (1m, 5m) are built from the platform's recent trades (streams.trades_ms), as the run built them: the recording's trades, each when the run received it",
      ]);

      // tradeloop divergence replays the run on its recording the same way: every decision paired, none
      // differing but in its fills (the sandbox's matching against the recorded books), and it says so
      sink.tapeProbeHeard = undefined;
      const report = await buildDivergenceReport({ recording, journal: journalFile, cwd: dir, initial: FUNDING });
      expect(report.strategies.map((x) => [x.name, x.fillModel, x.paired])).toEqual([['tape-probe', 'book', decidedLive.length]]);
      expect(report.differences.filter((d) => d.kind !== 'fill')).toEqual([]);
      expect(report.notes).toContain(`tape-probe's replay: ${replay.barInputs[0]!}`);

      // tradeloop backtest on the recording says it in its manifest; on the point model, that it replays no trades
      const cli = async (...more: string[]) => {
        const r = await runCli(['backtest', '--strategy', plugin, '--data', recording, '--initial', 'USD=100000,BTC=1', '--json', ...more]);
        expect(r.code, r.stderr).toBe(0);
        return (JSON.parse(r.stdout) as { manifest: { bars?: string[] } }).manifest.bars;
      };
      expect(await cli()).toEqual(replay.barInputs);
      expect(await cli('--fill-model', 'points')).toEqual([
        'bars of BTCUSD (1m, 5m) are built from the recorded prices (volume 0): the point model replays no trades, so bars a run built from its trades (streams.trades_ms) come out otherwise; the book model builds them from the recorded trades',
      ]);

      // the same recording without its trades: the bars are built from the recorded prices (no volume), as the replay says
      const stripped = join(dir, 'no-trades.jsonl');
      const raw = readFileSync(recording, 'utf8').trim().split('\n');
      writeFileSync(stripped, `${[raw[0], ...raw.slice(1).filter((l) => !l.includes('"stream":"trades:'))].join('\n')}\n`);
      const fromPrices: string[] = [];
      sink.tapeProbeHeard = fromPrices;
      const pricesRun = await runRecordedBookBacktest({
        definition,
        params: {},
        path: stripped,
        initial: FUNDING,
        limits: RiskLimitsSchema.parse(RISK),
      });
      expect(pricesRun.barInputs).toEqual([
        'bars of BTCUSD (1m, 5m) are built from the polled prices (no trades stream: volume is 0), as the run built them: the recorded prices',
      ]);
      expect(fromPrices.length).toBeGreaterThan(10);
      expect(fromPrices.every((l) => l.includes(' v0 '))).toBe(true);
      for (const l of fromPrices) expect(heardAt(l), l).toBe(endOf(l));
    },
  );
});
