/**
 * `tradeloop optimize --search random|tpe`: the study around runSearch (backtest/search/run.ts).
 * Locally every batch of finished trials is saved to `.tradeloop/studies/` (backtest/search/study-store.ts)
 * and the same command again continues the study; with `--queue` the trials' results live in Redis
 * (src/queue/study.ts) and the replayed draws find them there. Ctrl-C (SIGINT) stops at once (the
 * running trials' threads are terminated; every trial that finished is already saved), says how many
 * are kept and how to continue, and exits 130.
 */
import { join } from 'node:path';
import type { Grid } from '../../../backtest/optimize/grid.js';
import type { OptimizeConfig, OptimizeRow } from '../../../backtest/optimize/optimize.js';
import { runSearch, type SearchMethod, type SearchResult } from '../../../backtest/search/run.js';
import type { SearchSpace } from '../../../backtest/search/space.js';
import { StudyStore } from '../../../backtest/search/study-store.js';
import { InputError } from '../../core/index.js';
import { fingerprintStrategy, sha256 } from '../../strategy/plugin-hash.js';
import { portfolioFingerprint } from '../../../backtest/optimize/portfolio-job.js';
import { type CliContext, writeLine } from '../context.js';

export interface SearchCommandInput {
  readonly config: Omit<OptimizeConfig, 'grid' | 'onProgress'>;
  readonly space: SearchSpace;
  readonly method: SearchMethod;
  readonly trials: number;
  readonly seed: number;
  readonly resume: boolean;
  /** True with `--queue`: Redis keeps the trials, no local file. */
  readonly queued: boolean;
  /** After each batch: trials drawn of all, and the best trial so far. */
  readonly onProgress: (done: number, total: number, best: OptimizeRow | undefined) => void;
  readonly studyDir?: string;
}

/** Runs the study; undefined when Ctrl-C stopped it (the message is written and the exit code set). */
export async function runSearchStudy(ctx: CliContext, input: SearchCommandInput): Promise<SearchResult | undefined> {
  const { config: c } = input;
  const settings = {
    // inside a config: the config, every plugin and every market's data (portfolio-job.ts)
    plugin: c.portfolio ? portfolioFingerprint(c.portfolio) : fingerprintStrategy(c.strategy).hash,
    series: sha256(new Uint8Array(c.series.prices.buffer, c.series.prices.byteOffset, c.series.prices.byteLength)),
    times: sha256(new Uint8Array(c.series.times.buffer, c.series.times.byteOffset, c.series.times.byteLength)),
    space: input.space,
    method: input.method,
    seed: input.seed,
    metric: c.metric,
    walkForward: c.walkForward ?? null,
    baseParams: c.baseParams ?? {},
    feeBps: c.feeBps ?? 10,
    slippageBps: c.slippageBps ?? 0,
    initial: c.initial ?? null,
    limits: c.limits ?? null,
    // how the trials filled: inside OHLCV bars (and by which intrabar rule), or at the next point
    fills: (c.portfolio ? c.portfolio.series.some((s) => s.opens !== undefined) : c.series.opens !== undefined)
      ? `bars ${c.intrabar ?? 'adverse'}`
      : 'points',
  };
  const store = input.queued
    ? undefined
    : StudyStore.open(
        input.studyDir ?? join(process.cwd(), '.tradeloop', 'studies'),
        c.portfolio?.target ?? c.strategy.split(/[\\/]/).pop()!,
        settings,
      );
  try {
    const previous = store?.trials() ?? [];
    if (input.resume && store && previous.length === 0)
      throw new InputError(
        '--resume',
        `no saved trials for these settings (${store.file}); a changed plugin, data or setting starts a new study: run without --resume`,
      );
    if (store && previous.length > 0)
      writeLine(ctx.stderr, `continuing the study in ${store.file}: ${previous.length} trials already finished`);
    const stop = new AbortController();
    const onSigint = (): void => {
      if (stop.signal.aborted) process.exit(130); // a second Ctrl-C does not wait for the saving
      writeLine(
        ctx.stderr,
        input.queued
          ? 'stopping after the trials queued (Ctrl-C again to quit at once)'
          : 'stopping: the running trials are stopped; the finished ones are kept',
      );
      stop.abort();
    };
    process.on('SIGINT', onSigint);
    let result: SearchResult;
    try {
      result = await runSearch({
        ...input.config,
        space: input.space,
        method: input.method,
        trials: input.trials,
        seed: input.seed,
        previous,
        ...(store && { onTrials: (t) => store.save(t) }),
        signal: stop.signal,
        onProgress: (d, t, best) => input.onProgress(d, t, best),
      });
    } finally {
      process.off('SIGINT', onSigint);
    }
    if (result.search.stopped) {
      const where = store ? `in ${store.file}` : 'in Redis';
      writeLine(
        ctx.stderr,
        `interrupted: ${result.search.trials} of ${input.trials} trials finished and kept ${where}; run the same command again (or add --resume) to continue the study`,
      );
      ctx.exitCode = 130;
      return undefined;
    }
    return result;
  } finally {
    store?.close();
  }
}

/** The grid a search's trials make, for the report's table and manifest: every trial's parameters. */
export function gridOfSearch(space: SearchSpace, result: SearchResult): Grid {
  return { names: [...space.dimensions.map((d) => d.name), ...Object.keys(space.fixed)], combinations: result.rows.map((r) => r.params) };
}

/** `--search`, `--trials` and `--seed` read and checked. */
export function parseSearchFlags(flags: {
  readonly search?: string;
  readonly trials?: string;
  readonly seed?: string;
  readonly resume?: boolean;
}): { method: SearchMethod | 'grid'; trials: number; seed: number } {
  const method = flags.search ?? 'grid';
  if (method !== 'grid' && method !== 'random' && method !== 'tpe')
    throw new InputError('--search', `unknown method ${JSON.stringify(method)}; use grid, random or tpe`);
  const whole = (text: string | undefined, flag: string, fallback: number, min: number): number => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) throw new InputError(flag, `expected a whole number ≥ ${min}, got ${JSON.stringify(text)}`);
    return n;
  };
  if (method === 'grid' && (flags.trials !== undefined || flags.seed !== undefined || flags.resume))
    throw new InputError(
      flags.trials !== undefined ? '--trials' : flags.seed !== undefined ? '--seed' : '--resume',
      'applies to --search random or tpe; a grid runs every combination',
    );
  return { method, trials: whole(flags.trials, '--trials', 100, 1), seed: whole(flags.seed, '--seed', 1, 0) };
}
