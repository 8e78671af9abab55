import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { type Config } from '../config/index.js';
import { InputError } from '../core/index.js';
import { StateStore, savedWorldTime } from '../sandbox/index.js';

/**
 * The embedded sandbox's state file for `tradeloop run` in the `local` environment: `local.state`
 * when set, else a SQLite file beside the journal (`.tradeloop/sandbox-state.sqlite` for the
 * default journal), so a restarted run continues the world its journal traded in. Undefined for an
 * in-memory journal (nothing persists, so neither does the world).
 */
export function localStatePath(config: Config): string | undefined {
  if (config.local.state !== undefined) return config.local.state;
  const journal = config.journal.path;
  if (journal === ':memory:') return undefined;
  const stem = basename(journal, extname(journal));
  return join(dirname(journal), stem === 'journal' ? 'sandbox-state.sqlite' : `${stem}.sandbox-state.sqlite`);
}

/**
 * Where an accelerated local run's clock starts: now, or the simulated time the world was saved at
 * when that is later (a world run at 4× is ahead of the wall clock; starting behind it would stall
 * its market until wall time caught up).
 */
export function localClockStart(config: Config, wallNow: number): number {
  const path = localStatePath(config);
  const saved = path === undefined ? undefined : savedWorldTime(path);
  return Math.max(wallNow, saved ?? wallNow);
}

/**
 * A new world's instance id, from crypto random bytes: called only where the process is composed
 * (the sandbox itself takes it as an option and has no ambient randomness).
 */
export function newInstanceId(): string {
  return `sbx-${randomBytes(8).toString('hex')}`;
}

/**
 * `tradeloop run --fresh`: moves the journal and the embedded sandbox's state (with their SQLite
 * companions) to `<journal folder>/archive/<time>/`, so the run starts a new world and a new
 * journal and the old pair stays readable together. Refused outside `local` (the platform's records
 * cannot be archived away) and with `api.base_url` (that sandbox's state lives in its own process).
 * A run still using the world holds its state file: then --fresh is refused and nothing moves.
 * Returns the folder, or undefined when there was nothing to move.
 */
export function archiveLocalWorld(config: Config, nowMs: number): string | undefined {
  if (config.environment !== 'local')
    throw new InputError(
      '--fresh',
      `--fresh archives the journal and the embedded sandbox's world, which exist only in environment local (this is ${config.environment}, whose records stay at the platform): to start a new journal there, point journal.path at a new file`,
    );
  if (config.api.base_url !== undefined)
    throw new InputError(
      '--fresh',
      'with api.base_url the sandbox runs in its own process and keeps its own state: restart it with a new --state file and point journal.path at a new file instead of --fresh',
    );
  const journal = config.journal.path;
  if (journal === ':memory:') return undefined;
  const state = localStatePath(config);
  const files = [...companions(journal), ...(state === undefined ? [] : companions(state))].filter((f) => existsSync(f));
  if (files.length === 0) return undefined;
  const folder = join(dirname(journal), 'archive', new Date(nowMs).toISOString().replace(/:/g, '-'));
  // throws "in use by another sandbox" while a run (or tradeloop sandbox) holds the world
  if (state !== undefined && existsSync(state) && !state.toLowerCase().endsWith('.json')) new StateStore(state).close();
  mkdirSync(folder, { recursive: true });
  for (const f of files) renameSync(f, join(folder, basename(f)));
  return folder;
}

/** A SQLite file and the write-ahead log and shared memory that belong with it. */
function companions(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`];
}

/**
 * Paper mode's venue over the embedded sandbox: saving the world after every call when its state
 * is the SQLite store (a `.json` snapshot keeps its 10 s period; an in-memory journal has no state).
 */
export function paperVenue<V extends object>(venue: V, sandbox: { saveState(): boolean }, config: Config): V {
  const path = localStatePath(config);
  if (path === undefined || path.toLowerCase().endsWith('.json')) return venue;
  return savingVenue(venue, () => sandbox.saveState());
}

/**
 * Paper mode's venue calls the embedded sandbox's platform directly, not over HTTP, so nothing
 * would save its world before the answer: this wraps every method of `venue` to save (`save`, the
 * sandbox handle's saveState) once the call has run, before its caller hears the result. A save
 * that fails turns the call into an error (the run then looks the write up by ref_id, as after
 * any lost answer).
 */
export function savingVenue<V extends object>(venue: V, save: () => boolean): V {
  const saved = (): void => {
    if (!save())
      throw new Error(
        'the embedded sandbox could not save its world (see the log): the answer is withheld so the journal never holds more than the world',
      );
  };
  return new Proxy(venue, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        let out: unknown;
        try {
          out = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (e) {
          saved();
          throw e;
        }
        if (!(out instanceof Promise)) {
          saved();
          return out;
        }
        return out.then(
          (r: unknown) => (saved(), r),
          (e: unknown) => {
            saved();
            throw e;
          },
        );
      };
    },
  });
}
