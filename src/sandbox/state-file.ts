import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Clock, type TimerHandle } from '../clock/clock.js';
import { type Logger } from '../log/logger.js';
import { type SimSnapshot, parseSnapshot } from '../sim/snapshot.js';
import { type SimPlatform } from '../sim/sim.js';
import { StateStore } from './state-store.js';

/** Reads a state file; undefined when it does not exist yet (first start). */
export function loadState(path: string): SimSnapshot | undefined {
  if (!existsSync(path)) return undefined;
  return parseSnapshot(readFileSync(path, 'utf8'), path);
}

/** Writes a snapshot atomically (temporary file, then rename), creating the folder if needed. */
export function saveState(path: string, snapshot: SimSnapshot): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(snapshot));
  renameSync(tmp, path);
}

/**
 * Saves the sim's whole state to a file every `intervalMs` (on the given clock) and once more on
 * `stop()`, so a restarted sandbox (`--state FILE`) keeps its balances, orders and transfers.
 */
export class StateSaver {
  private timer: TimerHandle | undefined;
  private running = false;

  constructor(
    private readonly sim: SimPlatform,
    readonly path: string,
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.running = true;
    this.schedule();
  }

  /** Saves now; failures are logged (the sandbox keeps serving). Returns whether it worked. */
  save(): boolean {
    try {
      saveState(this.path, this.sim.snapshot());
      return true;
    } catch (err) {
      this.logger.error({ err, path: this.path }, 'could not save the sandbox state');
      return false;
    }
  }

  /** Stops the periodic saves and writes the final snapshot. */
  stop(): boolean {
    this.running = false;
    this.timer?.cancel();
    this.timer = undefined;
    return this.save();
  }

  private schedule(): void {
    if (!this.running || this.intervalMs <= 0) return;
    this.timer = this.clock.setTimeout(() => {
      this.save();
      this.schedule();
    }, this.intervalMs);
  }
}

/**
 * Where a sandbox keeps its world. A path ending in `.json` is a whole snapshot saved periodically
 * and on close (StateSaver); any other path is a SQLite state file (StateStore) to which every
 * change is written before the sandbox answers, so a client never knows more than the file holds.
 */
export class SandboxState {
  readonly durable: boolean;
  private readonly store: StateStore | undefined;
  private saver: StateSaver | undefined;
  private sim: SimPlatform | undefined;

  constructor(readonly path: string) {
    this.durable = !path.toLowerCase().endsWith('.json');
    this.store = this.durable ? new StateStore(path) : undefined;
  }

  /** The saved world, or undefined on first start. */
  load(): SimSnapshot | undefined {
    try {
      return this.store === undefined ? loadState(this.path) : this.store.load();
    } catch (e) {
      this.store?.close();
      throw e;
    }
  }

  /** Starts saving `sim`: periodic snapshots for a .json file; for SQLite, its current world at once. */
  attach(sim: SimPlatform, wallClock: Clock, intervalMs: number, logger: Logger): void {
    this.sim = sim;
    if (this.store !== undefined) this.store.persist(sim.snapshot(this.store.cache));
    else (this.saver = new StateSaver(sim, this.path, wallClock, intervalMs, logger)).start();
  }

  /** Saves the changes since the last commit (SQLite only; a .json file waits for its timer). Throws when the write fails. */
  commit(): void {
    if (this.store !== undefined && this.sim !== undefined) this.store.persist(this.sim.snapshot(this.store.cache));
  }

  /** Saves now; false when the write failed. */
  save(): boolean {
    if (this.saver !== undefined) return this.saver.save();
    try {
      this.commit();
      return true;
    } catch {
      return false;
    }
  }

  /** The last save, then the file is closed. */
  close(): boolean {
    if (this.saver !== undefined) return this.saver.stop();
    const saved = this.save();
    this.store?.close();
    return saved;
  }
}
