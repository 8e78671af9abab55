/**
 * Where a local `tradeloop optimize --search random|tpe` study keeps its finished trials:
 * `.tradeloop/studies/<strategy>-<key>.sqlite`, one row per trial, written as each batch ends (a
 * committed transaction, so a study killed at any moment keeps every trial saved before). The key
 * is a hash of everything that decides a trial's result and the order trials are drawn: the plugin's
 * files, the price series, the search space, method and seed, the metric, folds, costs, balances,
 * fixed params and risk limits. The same command again finds the same file and continues it; a
 * changed plugin, data or setting makes a new key, so a new study. `--trials` is not in the key:
 * asking for more trials extends the study.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../../src/strategy/plugin-hash.js';
import type { TrialRecord } from './run.js';

const DDL = `CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS trials(number INTEGER PRIMARY KEY, row TEXT NOT NULL)`;

export class StudyStore {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;

  private constructor(
    readonly file: string,
    settings: string,
  ) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(DDL);
    this.db.prepare('INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)').run('settings', settings);
    this.insert = this.db.prepare('INSERT OR REPLACE INTO trials(number, row) VALUES (?, ?)');
  }

  /** Opens (or creates) the study for these settings under `dir` (default .tradeloop/studies). */
  static open(dir: string, strategy: string, settings: unknown): StudyStore {
    mkdirSync(dir, { recursive: true });
    const text = JSON.stringify(settings);
    const name = strategy.replace(/[^A-Za-z0-9_-]+/g, '_');
    return new StudyStore(join(dir, `${name}-${sha256(text).slice(0, 16)}.sqlite`), text);
  }

  /** The trials saved so far, by number. */
  trials(): TrialRecord[] {
    return (this.db.prepare('SELECT number, row FROM trials ORDER BY number').all() as Array<{ number: number; row: string }>).map((r) => ({
      number: r.number,
      row: JSON.parse(r.row) as TrialRecord['row'],
    }));
  }

  /** Saves finished trials in one transaction. */
  save(trials: readonly TrialRecord[]): void {
    this.db.transaction(() => trials.forEach((t) => this.insert.run(t.number, JSON.stringify(t.row))))();
  }

  close(): void {
    this.db.close();
  }
}
