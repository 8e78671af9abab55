import { randomBytes } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { createApiClientFromConfig, TRADING_BOT_SCOPES, type ApiClient, type ResponseEvent, type VenueReachability } from '../api/index.js';
import { LiveClock, ScaledClock, type Clock } from '../clock/index.js';
import { resolveEnvironment, type Config } from '../config/index.js';
import { InputError } from '../core/index.js';
import { apiHost, checkJournalFile, Journal, lockJournal } from '../exec/index.js';
import type { Logger, SecretSet } from '../log/index.js';
import { startSandbox, type SandboxHandle } from '../sandbox/index.js';
import { localClockStart, localStatePath, newInstanceId, paperVenue } from './local-world.js';
import { bindJournalEnvironment, checkEnvironmentTargets, checkGrantedScopes, checkJournalAtVenue } from './credential-checks.js';
import { RestVenue, SimVenue, type MarketDataApi, type MarketSource, type Venue } from '../venue/index.js';
import {
  PAPER_READ_SCOPES,
  PAPER_STATE_META_KEY,
  PaperMarketSource,
  paperMarketReads,
  PaperVenue,
  type PaperStateStore,
} from '../fills/paper/index.js';
import {
  JsonLinesRecorder,
  PollingMarketSource,
  RequestBudget,
  streamSettingsFromConfig,
  tradesFromWire,
  type RecordedTrade,
  type RecordingRunInfo,
} from '../venue/polling/index.js';
import { buildRunInfo } from './recording-run-info.js';

/** Everything that differs between live and paper runs: the three ports plus what owns them. */
export interface LiveBundle {
  readonly clock: Clock;
  readonly venue: Venue;
  readonly source: MarketSource;
  readonly journal: Journal;
  readonly refPrefix: string;
  readonly profileId: string;
  readonly environment: string;
  /** Set for `--paper` in sandbox or production (or local with api.base_url): fills are simulated on the platform's market data, nothing is written to it. */
  readonly paperOnRealData?: boolean;
  /** Set when the embedded local sandbox runs in this process. */
  readonly sandbox?: SandboxHandle;
  /** The request budget the streams and the executors share (the dashboard and /metrics show it). */
  readonly budget: RequestBudget;
  /** Whether the venue answers, as the client's circuit breaker sees it. */
  reachability(): VenueReachability;
  /** The shared request budget's state (`api.rate_limit_store`); undefined without one. */
  budgetStore(): ReturnType<ApiClient['budgetStore']>;
  close(): Promise<void>;
}

export interface SourceFactoryInput {
  readonly api: ApiClient;
  readonly clock: Clock;
  readonly profileId: string;
  readonly config: Config;
  readonly log: Logger;
  /** One budget for the streams and the executors' requests (orders go first when it is tight). */
  readonly budget: RequestBudget;
  /** The configured strategies' names as the run and its journal know them (config order). */
  readonly strategyNames?: readonly string[];
}

export interface BundleOptions {
  readonly paper?: boolean;
  readonly log: Logger;
  readonly secrets?: SecretSet;
  /** Market source factory (default: the polling streams over the client). */
  readonly makeSource?: (input: SourceFactoryInput) => MarketSource;
  /** Clock override (tests); otherwise live time, accelerated by `local.speed` for the local sandbox. */
  readonly clock?: Clock;
  /** The journal file is a move of the original, not a copy (`tradeloop run --journal-moved`): bind it to this file. */
  readonly journalMoved?: boolean;
  /** TEST-ONLY (`TRADELOOP_TEST_JOURNAL_FULL_AFTER`): the journal's file stops growing after this many writes, as on a full disk. */
  readonly journalFullAfter?: number;
  /** Sees every answer of the API client (status, duration): the operations server counts 429s. */
  readonly onResponse?: (event: ResponseEvent) => void;
  /**
   * The loaded strategies' names in config order (an entry without `name` takes its plugin's own):
   * a recording's header names each strategy as the journal does. Without it, an unnamed entry is
   * named by its plugin spec.
   */
  readonly strategyNames?: readonly string[];
}

/**
 * The request budget a live or paper run's streams share. The platform's limits are averages over
 * five minutes per endpoint (50 requests/s for most), so a sustained 20/s is far inside them; the
 * burst holds three seconds' worth, so the start's reads (reconciliation, the orphan scan, the
 * warm-up: some 25 requests) do not hold up the first price poll, which as market data must leave a
 * quarter of the burst behind (with one second's worth it waited some 400 ms).
 */
export const LIVE_BUDGET = { ratePerSec: 20, burst: 60 } as const;
/**
 * Builds a live (or paper) bundle from the configuration: for `local` it starts the embedded
 * sandbox in this process and points the client at it; otherwise it uses the configured platform
 * environment with credentials from the process environment.
 */
export async function buildLiveBundle(config: Config, env: NodeJS.ProcessEnv, options: BundleOptions): Promise<LiveBundle> {
  const resolved = resolveEnvironment(config, env);
  checkEnvironmentTargets(config.environment, { 'api.base_url': resolved.apiUrl, 'api.token_url': resolved.tokenUrl });
  const local = config.environment === 'local';
  // paper on the market data of the platform the client reaches (sandbox, production, or a sandbox of
  // our own at api.base_url): orders fill in a paper venue and nothing is written to that platform
  const paperReal = options.paper === true && !(local && config.api.base_url === undefined);
  const clock =
    options.clock ??
    (local && config.local.speed !== 1
      ? new ScaledClock(localClockStart(config, new LiveClock().now()), config.local.speed)
      : new LiveClock());
  let sandbox: SandboxHandle | undefined;
  if (local && config.api.base_url === undefined) {
    // it accepts the credential this run uses: TRADELOOP_CLIENT_ID/SECRET when exported, else the default
    const clients = [{ clientId: resolved.clientId, clientSecret: resolved.clientSecret }];
    // the world continues across runs: its state beside the journal, saved before every answer
    const stateFile = localStatePath(config);
    sandbox = await startSandbox({
      port: config.local.port,
      seed: config.local.seed,
      funding: config.local.funding,
      clients,
      clock,
      logger: options.log,
      instanceId: newInstanceId(),
      shapes: config.local.shapes,
      ...(stateFile !== undefined && { stateFile }),
      sim: { rules: { submitDelayMs: config.local.submit_delay_ms }, ...(config.local.documents && { platform: { documents: true } }) },
    });
    options.log.info(
      `local sandbox listening on ${sandbox.url} (world ${sandbox.instanceId}, ${sandbox.restored ? 'continued from' : 'new in'} ${stateFile ?? 'memory'})`,
    );
  }
  const budget = new RequestBudget({ clock, ...LIVE_BUDGET });
  let api: ApiClient;
  try {
    api = createApiClientFromConfig(config, env, {
      clock,
      onRequest: (e) => budget.observe(e),
      ...(options.onResponse && { onResponse: options.onResponse }),
      logger: options.log,
      ...(options.secrets && { secrets: options.secrets }),
      ...(sandbox && { apiUrl: sandbox.apiUrl, tokenUrl: sandbox.tokenUrl }),
      ...(paperReal && { scopes: config.api.scopes ?? PAPER_READ_SCOPES }),
    });
  } catch (e) {
    // the sandbox listens and holds its world's lock: a failure from here on closes it, or the run never ends
    await sandbox?.close();
    throw e;
  }
  const closeAll = async (): Promise<void> => {
    await api.close();
    await sandbox?.close();
  };
  try {
    checkGrantedScopes(await api.grantedScopes(), config.api.scopes ?? (paperReal ? PAPER_READ_SCOPES : TRADING_BOT_SCOPES));
    const profile = await api.getProfile(config.run.profile);
    // a paper journal on real data is bound to its own name: its orders exist only in the paper venue
    const bound = paperReal ? `${resolved.name} (${PAPER_ON_REAL_DATA})` : resolved.name;
    const journal = openJournal(config.journal.path, options.journalFullAfter);
    let refPrefix: string;
    let venue: Venue;
    let paper: PaperVenue | undefined;
    try {
      const apiUrl = sandbox?.apiUrl ?? resolved.apiUrl;
      bindJournalEnvironment(
        journal,
        bound,
        apiUrl === undefined
          ? undefined
          : { environment: bound, host: apiHost(apiUrl), profileId: profile.id, ...(sandbox && { sandboxInstance: sandbox.instanceId }) },
      );
      if (paperReal) {
        paper = await PaperVenue.open({
          funding: config.paper.funding,
          feeBps: config.risk.fee_bps,
          latencyMs: config.paper.latency_ms,
          now: () => clock.now(),
          store: journalPaperStore(journal),
          onNote: (note) => options.log.warn(note),
          onSaveError: (e) =>
            options.log.error(
              `PAPER on real data: the paper account could not be kept in the journal (${e instanceof Error ? e.message : String(e)}): the next change writes it whole again`,
            ),
        });
        options.log.info(
          paper.continued
            ? 'PAPER on real data: continuing the paper account kept in the journal'
            : `PAPER on real data: a new paper account with ${Object.entries(config.paper.funding)
                .map(([a, v]) => `${v} ${a}`)
                .join(', ')} (paper.funding)`,
        );
        for (const note of paper.restoreNotes) options.log.warn(note);
      }
      venue =
        paper ??
        (options.paper && sandbox ? paperVenue(new SimVenue(sandbox.sim, profile.id), sandbox, config) : new RestVenue(api, profile.id));
      if (config.journal.path !== ':memory:') {
        const st = statSync(config.journal.path, { bigint: true });
        const file = { path: resolvePath(config.journal.path), dev: String(st.dev), ino: String(st.ino) };
        if (checkJournalFile(journal, file, options.journalMoved) === 'rebound')
          options.log.warn(`--journal-moved: the journal is now bound to ${file.path}`);
      }
      refPrefix = journalPrefix(journal, config.run.ref_prefix);
      await checkJournalAtVenue(journal, venue, refPrefix);
    } catch (e) {
      journal.close();
      throw e;
    }
    const input = {
      api,
      clock,
      profileId: profile.id,
      config,
      log: options.log,
      budget,
      ...(options.strategyNames && { strategyNames: options.strategyNames }),
    };
    const source = paper ? paperSource(input, paper, resolved.name, options.makeSource) : (options.makeSource ?? pollingSource)(input);
    return {
      clock,
      venue,
      source,
      journal,
      refPrefix,
      profileId: profile.id,
      environment: paperReal ? `${resolved.name} (${PAPER_ON_REAL_DATA})` : `${resolved.name}${options.paper ? ' (paper)' : ''}`,
      ...(paperReal && { paperOnRealData: true }),
      ...(sandbox && { sandbox }),
      budget,
      reachability: () => api.venueReachability(),
      budgetStore: () => api.budgetStore(),
      close: async () => {
        await paper?.flush();
        journal.close();
        await closeAll();
      },
    };
  } catch (e) {
    await closeAll();
    throw e;
  }
}

/** How a paper run on the platform's market data is named (panel, summary, journal, recording). */
export const PAPER_ON_REAL_DATA = 'PAPER on real data';

/** Keeps the paper account in the journal's meta table: it moves, backs up and locks with the journal. */
function journalPaperStore(journal: Journal): PaperStateStore {
  return { load: () => journal.getMeta(PAPER_STATE_META_KEY), save: (state) => journal.setMeta(PAPER_STATE_META_KEY, state) };
}

/**
 * The market source of a paper run on real data: the platform's books, tickers, prices, quotes (and
 * trades with streams.trades_ms), polled through the market-data reads only (no account stream),
 * feeding the paper venue.
 */
function paperSource(input: SourceFactoryInput, venue: PaperVenue, environment: string, make: BundleOptions['makeSource']): MarketSource {
  const log = input.log;
  const reads = paperMarketReads(input.api, {
    onQuotes: (e) => {
      if (e === undefined) log.info('PAPER on real data: quotes can be read again');
      else
        log.error(
          `PAPER on real data: quotes cannot be read from ${environment} (${e instanceof Error ? e.message : String(e)}): execute-quote intents find no quote until they can; quotes need the credential (TRADELOOP_CLIENT_ID/SECRET) with the exchange:read_quote scope`,
        );
    },
    // a malformed answer fills nothing here: the stream refuses and counts it
    onTrades: (market, body) => venue.observeTrades(market, tradesOrNone(body)),
  });
  const market = make ? make(input) : pollingSource({ ...input, profileId: undefined }, reads, `${environment} (${PAPER_ON_REAL_DATA})`);
  return new PaperMarketSource({ market, venue, clock: input.clock });
}

/** The trades of a ListRecentExecutions answer, or none when it is malformed (the stream reports that). */
function tradesOrNone(body: unknown): RecordedTrade[] {
  try {
    return tradesFromWire(body);
  } catch {
    return [];
  }
}

/** The live market source: poll streams over the client, sharing the run's request budget. */
export function pollingSource(
  input: Omit<SourceFactoryInput, 'profileId'> & { readonly profileId: string | undefined },
  api: MarketDataApi = input.api,
  environment: string = input.config.environment,
): MarketSource {
  const s = input.config.streams;
  const settings = streamSettingsFromConfig(s);
  return new PollingMarketSource({
    api,
    clock: input.clock,
    ...(input.profileId !== undefined && { profileId: input.profileId }),
    budget: input.budget,
    intervals: settings.intervals,
    alwaysPoll: settings.alwaysPoll,
    ...(s.record !== undefined && {
      recorder: new JsonLinesRecorder(s.record, { run: runInfoOf(input.config, environment, input.clock.now(), input.strategyNames) }),
    }),
  });
}

/**
 * What a recording's header says of this run: the configured strategies (with their plugin hashes),
 * the risk limits and fee, the environment and the warm-up asked for, so a replay can re-run it.
 */
function runInfoOf(config: Config, environment: string, now: number, names?: readonly string[]): RecordingRunInfo {
  return buildRunInfo({
    startedAt: now,
    environment,
    strategies: config.strategies.map((st, i) => ({ spec: st.plugin, name: st.name ?? names?.[i] ?? st.plugin, params: st.params })),
    riskLimits: config.risk,
    fees: { fee_bps: config.risk.fee_bps },
    warmUp: { increment: 'ONE_MINUTE', points: config.streams.warmup_points },
  });
}

/**
 * Opens the journal for writing: its one-writer lock first (a second bot is refused), released on
 * close; then SQLite's quick check, so a damaged file is refused here, naming it, rather than failing
 * halfway through the reconcile.
 */
function openJournal(path: string, fullAfterWrites?: number): Journal {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const lock = lockJournal(path);
  let journal: Journal;
  try {
    journal = new Journal(path, { lock, ...(fullAfterWrites !== undefined && { fullAfterWrites }) });
  } catch (e) {
    lock.release();
    // a file that is not a journal (or not readable) is bad input, not a crash with a stack trace
    throw new InputError(
      'journal.path',
      `${path} cannot be opened as a tradeloop journal (${e instanceof Error ? e.message : String(e)}): point journal.path at a new file, or move this one away`,
    );
  }
  const check = journal.quickCheck();
  if (check !== 'ok') {
    journal.close();
    throw new InputError(
      'journal.path',
      `${path} is damaged (SQLite's quick_check: ${check.split('\n')[0]}): restore it from a backup (then start once with --journal-moved), or move it aside and start a new journal (tradeloop run --fresh does that on the local sandbox; elsewhere point journal.path at a new file and choose a new run.ref_prefix)`,
    );
  }
  return journal;
}

/** The journal's ref_id prefix: fixed at creation, so ids stay unique across restarts and bots. */
export function journalPrefix(journal: Journal, configured: string | undefined): string {
  const existing = journal.getMeta('ref_prefix');
  if (existing !== undefined) {
    if (configured !== undefined && configured !== existing)
      throw new InputError('run.ref_prefix', `the journal was created with prefix ${existing}: keep it, or use a new journal.path`);
    return existing;
  }
  const prefix = configured ?? `tl${randomBytes(4).toString('hex')}`;
  journal.setMeta('ref_prefix', prefix);
  return prefix;
}
