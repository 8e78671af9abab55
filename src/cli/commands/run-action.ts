import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import { LiveClock, type TimerHandle } from '../../clock/index.js';
import { configLabel, describeConfigSource, loadConfig, type Config } from '../../config/index.js';
import { InputError } from '../../core/index.js';
import {
  CRASH_AT_VARIABLE,
  crashHookFrom,
  Journal,
  JOURNAL_FULL_AFTER_VARIABLE,
  journalFullAfterFrom,
  lockJournal,
  type CrashHook,
} from '../../exec/index.js';
import {
  archiveLocalWorld,
  buildLiveBundle,
  JournalFailedError,
  LiveRun,
  loadConfiguredStrategies,
  runnersFor,
  subscriptionsFor,
  type LiveBundle,
  type RunSummary,
} from '../../live/index.js';
import { createLogger, SecretSet, type Logger } from '../../log/index.js';
import { parseParamString } from '../../strategy/index.js';
import { type CliContext, writeLine } from '../context.js';
import { apiTargetOf } from '../failures.js';
import { parseDuration } from '../duration.js';
import { renderPanel, renderSummary } from '../panel.js';
import type { Ops, OpsRun } from '../../ops/index.js';
import { opsWanted, UI_TOKEN_VARIABLE } from '../../ops/wanted.js';
import { LogTail } from '../../ops/log-tail.js';

import type { RunOptions } from './run.js';

/** What `tradeloop run` does once its flags are read (loaded only then: see run.ts); returns the exit code. */
export async function runCommand(opts: RunOptions, ctx: CliContext): Promise<number> {
  const durationMs = opts.duration === undefined ? undefined : parseDuration(opts.duration);
  // read once here, never per order: the reliability suite's crash hook, absent in normal runs
  const crash = crashHookFrom(ctx.env[CRASH_AT_VARIABLE]);
  const journalFullAfter = journalFullAfterFrom(ctx.env[JOURNAL_FULL_AFTER_VARIABLE]);
  const { config: base, source } = loadConfig(opts.config);
  const config: Config = opts.strategy
    ? { ...base, strategies: [{ plugin: opts.strategy, params: parseParamString(opts.params ?? '') }] }
    : base;
  const loaded = await loadConfiguredStrategies(config.strategies, opts.strategy ? { flags: true } : { file: source.file });
  const tty = (ctx.stdout as NodeJS.WriteStream).isTTY === true && !opts.json;
  const secrets = new SecretSet();
  const logFile = logFileOf(config, tty);
  writeLine(ctx.stderr, describeConfigSource(source));
  const target = apiTargetOf(config, configLabel(source));
  if (target !== undefined) ctx.apiTarget = target;
  else ctx.portSetting = { from: `local.port in ${configLabel(source)}` };
  if (logFile !== undefined)
    writeLine(
      ctx.stderr,
      `logs: ${logFile}${tty && config.log.file === undefined ? ' (the live panel owns the terminal; set log.file to choose another file)' : ''}`,
    );
  // the dashboard's log view keeps the run's last lines (bounded, already redacted)
  const logTail = new LogTail(500, secrets);
  const log = makeLogger(config, secrets, logFile, logTail);
  log.info(describeConfigSource(source));
  // a paper run outside the embedded sandbox keeps its account in the journal alone
  if (opts.fresh && opts.paper && !(config.environment === 'local' && config.api.base_url === undefined)) {
    const archived = archivePaperJournal(config.journal.path, new LiveClock().now());
    log.info(
      archived === undefined
        ? '--fresh: no paper journal to archive yet'
        : `--fresh: the paper journal (and its paper account) moved to ${archived}`,
    );
  } else if (opts.fresh) {
    const archived = archiveLocalWorld(config, new LiveClock().now());
    log.info(
      archived === undefined
        ? '--fresh: no journal or sandbox world to archive yet'
        : `--fresh: the journal and the sandbox world moved to ${archived}`,
    );
  }
  // the dashboard's token and the webhook's URL and secret are checked (and masked) before anything starts
  // (the ops module, its server, metrics and views, loads only for a run that uses it)
  const ops = opsWanted(config, ctx.env, opts.ui)
    ? (await import('../../ops/index.js')).Ops.prepare({ config, env: ctx.env, log, secrets, logTail, ...(opts.ui && { ui: true }) })
    : undefined;
  const bundle = await buildLiveBundle(config, ctx.env, {
    paper: opts.paper ?? false,
    log,
    secrets,
    strategyNames: loaded.map((s) => s.name),
    ...(opts.journalMoved && { journalMoved: true }),
    ...(journalFullAfter !== undefined && { journalFullAfter }),
    ...(ops && { onResponse: ops.onResponse }),
  });
  let summary: RunSummary;
  try {
    summary = await runUntilDone(bundle, config, loaded, log, { durationMs, tty, logFile, ctx, crash, ops });
  } catch (e) {
    // a journal that failed while the run was starting ends it as one failing later does
    const failure = bundle.journal.writeFailure;
    if (!(e instanceof JournalFailedError) && failure === undefined) throw e;
    const why =
      e instanceof JournalFailedError
        ? e.failure
        : { kind: 'write-failed', reason: `a write to the journal ${config.journal.path} failed (${failure?.code}: ${failure?.message})` };
    log.error({ alert: 'JOURNAL_FAILED', kind: why.kind }, `ALERT: trading not started: ${why.reason}`);
    writeLine(ctx.stderr, `error [JOURNAL_FAILED]: trading did not start: ${why.reason}. ${journalFix(why.kind)}`);
    return JOURNAL_FAILED_EXIT;
  } finally {
    await bundle.close();
  }
  writeLine(
    ctx.stdout,
    opts.json
      ? JSON.stringify(bundle.paperOnRealData ? { ...summary, mode: 'paper', environment: bundle.environment } : summary)
      : summaryText(summary, bundle),
  );
  if (logFile !== undefined && tty)
    writeLine(
      ctx.stderr,
      `logs of this run: ${logFile}${existsSync(logFile) ? '' : " (deleted during the run: this run's log is gone with it)"}`,
    );
  if (summary.journalFailure) {
    writeLine(
      ctx.stderr,
      `error [JOURNAL_FAILED]: trading halted and the run stopped: ${summary.journalFailure.reason}. ${journalFix(summary.journalFailure.kind)}`,
    );
    return JOURNAL_FAILED_EXIT;
  }
  // a failure at run time: an order left unresolved, or every strategy stopped by an error
  const allStopped = loaded.length > 0 && summary.stoppedStrategies.length >= loaded.length;
  if (summary.unresolved > 0 || allStopped) return 1;
  // orders the exit was asked to cancel are still open at the venue (named in the summary and the log)
  const openLeft = config.run.cancel_on_exit && summary.openOrdersLeft > 0;
  if (openLeft)
    log.error(
      `${summary.openOrdersLeft} order(s) still open at the venue after ${config.run.exit_timeout_ms} ms of exit cancels: ${(summary.leftOpen ?? []).join('; ')}`,
    );
  // quote executions the exit could not follow to settlement (named in the summary, and in the log by the run)
  return openLeft || (summary.settlingQuoteExecutions ?? 0) > 0 ? 3 : 0;
}

/** The exit code of a run that halted because its journal failed (a write refused, its file deleted or replaced). */
export const JOURNAL_FAILED_EXIT = 5;

/** What the operator does after a journal failure, by its kind. */
function journalFix(kind: string): string {
  if (kind === 'write-failed')
    return 'Free space (or fix the disk, or make the file writable), then start again: the start reconciles the journal with the venue';
  return 'Orders this run made after the journal was lost are at the venue under its ref_prefix: restore the journal from a backup if there is one (then start once with --journal-moved); a new journal needs a new run.ref_prefix (or tradeloop run --fresh on the local sandbox)';
}

/**
 * `--fresh --paper` outside local: the paper account lives in the journal, so the journal (with its
 * SQLite companions) moves to `<journal folder>/archive/<time>/` and the run starts a new account.
 * Refused for a journal that is not a paper one (a live journal's records belong to the platform's
 * orders) and while another bot writes to it. Returns the folder, or undefined when there is no journal.
 */
function archivePaperJournal(journal: string, nowMs: number): string | undefined {
  if (journal === ':memory:' || !existsSync(journal)) return undefined;
  const lock = lockJournal(journal); // refused while a bot writes to it
  try {
    const j = new Journal(journal);
    const environment = j.getMeta('environment');
    j.close();
    if (environment !== undefined && !environment.includes('PAPER')) {
      throw new InputError(
        '--fresh',
        `${journal} is the journal of ${environment}, not a paper one: --fresh --paper archives only a paper journal; point journal.path at a paper run's own file`,
      );
    }
    const folder = join(dirname(journal), 'archive', new Date(nowMs).toISOString().replace(/:/g, '-'));
    mkdirSync(folder, { recursive: true });
    for (const f of [journal, `${journal}-wal`, `${journal}-shm`]) if (existsSync(f)) renameSync(f, join(folder, basename(f)));
    return folder;
  } finally {
    lock.release();
  }
}

/** The summary for people; a paper run on real data says so in its first line. */
function summaryText(summary: RunSummary, bundle: LiveBundle): string {
  const text = renderSummary(summary);
  if (!bundle.paperOnRealData) return text;
  return text.replace(
    /^run summary/,
    `run summary: ${bundle.environment} (fills simulated on the platform's books and quotes; no order, quote execution or transfer was sent to it)`,
  );
}

async function runUntilDone(
  bundle: LiveBundle,
  config: Config,
  loaded: Awaited<ReturnType<typeof loadConfiguredStrategies>>,
  log: Logger,
  o: {
    durationMs: number | undefined;
    tty: boolean;
    logFile: string | undefined;
    ctx: CliContext;
    crash: CrashHook | undefined;
    ops: Ops | undefined;
  },
): Promise<RunSummary> {
  const run = new LiveRun({
    clock: bundle.clock,
    venue: bundle.venue,
    source: bundle.source,
    journal: o.ops ? o.ops.journal(bundle.journal) : bundle.journal,
    config,
    environment: bundle.environment,
    refPrefix: bundle.refPrefix,
    log,
    strategies: runnersFor(loaded, log),
    budgetStore: () => bundle.budgetStore(),
    ...(o.crash && { crash: o.crash }),
    ...(config.journal.path !== ':memory:' && { journalPath: resolvePath(config.journal.path) }),
  });
  let duration: TimerHandle | undefined;
  let requestStop: (reason: string) => void = () => undefined;
  const stopSignal = new Promise<string>((resolve) => {
    requestStop = resolve;
    const onSignal = (sig: string): void => resolve(`${sig} received`);
    process.once('SIGINT', () => onSignal('SIGINT'));
    process.once('SIGTERM', () => onSignal('SIGTERM'));
    if (o.durationMs !== undefined)
      duration = bundle.clock.setTimeout(() => resolve(`--duration ${o.durationMs} ms elapsed`), o.durationMs);
  });
  let reason: string;
  try {
    // the server is up before trading starts (a port in use fails the run before any order)
    if (o.ops) o.ctx.portSetting = { from: 'ui.port in the config (default 8787)' };
    const served = await o.ops?.start(opsRunOf(run, bundle, requestStop), {
      refPrefix: bundle.refPrefix,
      environment: bundle.environment,
      ...(config.journal.path !== ':memory:' && { journalPath: resolvePath(config.journal.path) }),
    });
    // the run's own token is printed here once, never logged (the logger masks it)
    const dashboard =
      served?.url === undefined ? undefined : `dashboard: ${served.urlWithToken ?? `${served.url} (token: ${UI_TOKEN_VARIABLE})`}`;
    if (dashboard !== undefined) writeLine(o.ctx.stderr, dashboard);
    if (served?.chat !== undefined) writeLine(o.ctx.stderr, served.chat);
    await run.start(subscriptionsFor(loaded));
    log.info(`trading ${loaded.map((s) => `${s.name} on ${s.markets.join('+')}`).join(', ')} in ${bundle.environment}`);
    o.ops?.announceStart();
    // the panel redraws the whole screen: the dashboard's line stays at its foot (on screen only, never in a log)
    const foot = dashboard === undefined ? '' : `${dashboard}\n`;
    const draw = (): void => void o.ctx.stdout.write(`\x1b[H\x1b[2J${renderPanel(run.view(), o.logFile)}\n${foot}`);
    const panel = o.tty ? refreshEverySecond(draw) : undefined;
    // a run whose every strategy has stopped (each threw or returned a non-intent) has nothing left to do
    reason = await Promise.race([stopSignal, run.allStopped, run.journalFailed]);
    panel?.cancel();
    // a failed journal ends the run at once: its last frame, naming the failure, stays above the summary
    if (o.tty && run.view().journalFailure !== undefined) draw();
  } catch (e) {
    await o.ops?.stop({ reason: `the run failed to start: ${e instanceof Error ? e.message : String(e)}` });
    throw e;
  } finally {
    // a run that ends (or fails to start) before --duration must not wait for it: the timer holds the process open
    duration?.cancel();
  }
  const summary = await run.stop(reason);
  await o.ops?.stop({ reason, ...summary });
  return summary;
}

/** What the operations server may read and ask of this run. */
function opsRunOf(run: LiveRun, bundle: LiveBundle, requestStop: (reason: string) => void): OpsRun {
  return {
    clock: bundle.clock,
    kernel: run.kernel,
    strategies: run.strategies,
    journal: bundle.journal,
    view: () => run.view(),
    requestStop,
    streams: () => bundle.source.health(),
    reachability: () => bundle.reachability(),
    budget: bundle.budget,
  };
}

/** Redraws the panel on wall time (the screen is for people, whatever the run's clock). */
function refreshEverySecond(draw: () => void): TimerHandle {
  const wall = new LiveClock({ unref: true });
  let handle: TimerHandle | undefined;
  let stopped = false;
  const loop = (): void => {
    if (stopped) return;
    draw();
    handle = wall.setTimeout(loop, 1_000);
  };
  loop();
  return {
    cancel: () => {
      stopped = true;
      handle?.cancel();
    },
  };
}

/**
 * Where the run's logs go: `log.file` when set; else, with the live panel on a terminal, `run.log`
 * beside the journal (the panel redraws the whole screen, so log lines there would be wiped); else
 * nowhere but stderr (undefined).
 */
export function logFileOf(config: Config, panel: boolean): string | undefined {
  if (config.log.file !== undefined) return config.log.file;
  return panel ? join(dirname(config.journal.path), 'run.log') : undefined;
}

function makeLogger(config: Config, secrets: SecretSet, file: string | undefined, tap: LogTail): Logger {
  const pretty = config.log.pretty !== undefined && { pretty: config.log.pretty };
  return createLogger({ level: config.log.level, ...pretty, secrets, tap, ...(file !== undefined && { file }) });
}
