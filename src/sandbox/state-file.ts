import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Clock, type TimerHandle } from '../clock/clock.js';
import { type Logger } from '../log/logger.js';
import { type SimSnapshot, parseSnapshot } from '../sim/snapshot.js';
import { type SimPlatform } from '../sim/sim.js';

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
