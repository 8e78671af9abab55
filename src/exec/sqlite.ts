import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';

/**
 * better-sqlite3, loaded when the first journal file opens: a command or a backtest that keeps its
 * journal in memory never loads the native module.
 */
export function openSqlite(): typeof Database {
  return createRequire(import.meta.url)('better-sqlite3') as typeof Database;
}
