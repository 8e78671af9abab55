import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { InputError } from '../core/errors.js';
import { type SimSnapshot, type SnapshotCache, parseSnapshot } from '../sim/snapshot.js';

type Row = readonly [key: string, body: string];

/**
 * The simulated time a state file's world was last saved at, or undefined (no file, no world, or
 * unreadable: opening it for real reports why). An accelerated run's clock starts here, not at wall
 * time, so a world saved ahead of the wall clock does not stand still until wall time catches up.
 */
export function savedWorldTime(path: string): number | undefined {
  if (!existsSync(path) || path.toLowerCase().endsWith('.json')) return undefined;
  try {
    const db = new Database(path, { fileMustExist: true, timeout: 200 });
    try {
      const row = db.prepare("SELECT body FROM sandbox_state WHERE section = 'whole' AND key = 'savedAt'").get() as
        { body: string } | undefined;
      const at = row === undefined ? undefined : Number(row.body);
      return at !== undefined && Number.isFinite(at) ? at : undefined;
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}

/** Sections kept as one row per record, with the record's key. */
const KEYED: Readonly<Record<string, (r: unknown) => string>> = {
  orders: (r) => (r as { id: string }).id,
  executions: (r) => (r as { executionId: string }).executionId,
  transfers: (r) => (r as { id: string }).id,
  quotes: (r) => (r as { id: string }).id,
  quoteExecutions: (r) => (r as { id: string }).id,
  balances: (r) => `${(r as string[])[0]}/${(r as string[])[1]}`,
};

/** Keyed sections whose records can disappear (expired quotes, emptied balances); the others only grow. */
const DELETABLE = new Set(['quotes', 'balances']);

type Change = readonly [section: string, key: string, body: string | undefined];

/** Parts kept whole, one row each (small, or changed as one). */
const WHOLE = [
  'version',
  'seed',
  'instanceId',
  'tickMs',
  'startedAt',
  'savedAt',
  'ids',
  'profiles',
  'limitUsage',
  'tapes',
  'platform',
] as const;

/**
 * The sandbox's durable state: a SQLite file (WAL) holding one row per record (order, execution,
 * transfer, quote, quote execution, balance) and one row per whole part (id counters, profiles,
 * tapes, platform areas, times). `persist` writes only the rows whose content changed since the
 * last call, in one transaction, so the sandbox can save every change before it answers without
 * rewriting its whole world, and a SIGKILL loses nothing a client has been told.
 */
export class StateStore {
  private readonly db: Database.Database;
  /** What each row holds on disk now, by section then key (to write only the changes). */
  private readonly written = new Map<string, Map<string, string>>();
  private pos = 0;
  /** Final records encoded once (pass to `sim.snapshot`), and their JSON text by encoded record. */
  readonly cache: SnapshotCache = new WeakMap();
  private readonly texts = new WeakMap<object, string>();
  /** Final records already on disk as they are: skipped without a look at their text. */
  private readonly settled = new WeakSet<object>();
  private readonly upsert: Database.Statement;
  private readonly remove: Database.Statement;

  constructor(readonly path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    let db: Database.Database | undefined;
    try {
      db = new Database(path, { timeout: 200 });
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      // one sandbox per world: the lock is held until close, and the OS drops it when the process dies
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec(
        'CREATE TABLE IF NOT EXISTS sandbox_state (section TEXT NOT NULL, key TEXT NOT NULL, pos INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (section, key)) WITHOUT ROWID',
      );
      db.exec('BEGIN EXCLUSIVE; COMMIT');
      this.db = db;
    } catch (e) {
      db?.close();
      const message = e instanceof Error ? e.message : String(e);
      if (/locked|busy/i.test(message))
        throw new InputError(
          'state',
          `${path} is in use by another sandbox (a tradeloop run or tradeloop sandbox): stop it first, or point local.state elsewhere`,
        );
      throw new InputError(
        'state',
        `${path} cannot be opened as a sandbox state file (${message}): delete it to start afresh, or point local.state elsewhere`,
      );
    }
    this.upsert = this.db.prepare(
      'INSERT INTO sandbox_state (section, key, pos, body) VALUES (?, ?, ?, ?) ON CONFLICT (section, key) DO UPDATE SET body = excluded.body',
    );
    this.remove = this.db.prepare('DELETE FROM sandbox_state WHERE section = ? AND key = ?');
  }

  /** The saved world, or undefined when the file holds none yet (first start). */
  load(): SimSnapshot | undefined {
    const rows = this.db.prepare('SELECT section, key, pos, body FROM sandbox_state ORDER BY pos').all() as {
      section: string;
      key: string;
      pos: number;
      body: string;
    }[];
    if (rows.length === 0) return undefined;
    const out: Record<string, unknown> = {};
    for (const section of Object.keys(KEYED)) out[section] = [];
    for (const r of rows) {
      this.remember(r.section, r.key, r.body);
      this.pos = Math.max(this.pos, r.pos);
      const value = this.parseRow(r);
      if (r.section === 'whole') out[r.key] = value;
      else (out[r.section] as unknown[]).push(value);
    }
    return parseSnapshot(JSON.stringify(out), this.path);
  }

  /** Writes what changed since the last call (one transaction); returns how many rows it wrote or removed. */
  persist(snapshot: SimSnapshot): number {
    const changes: Change[] = [];
    const s = snapshot as unknown as Record<string, unknown>;
    for (const key of WHOLE) if (s[key] !== undefined) this.diff('whole', [[key, JSON.stringify(s[key])]], changes);
    for (const [section, keyOf] of Object.entries(KEYED)) this.diffRecords(section, s[section] as object[], keyOf, changes);
    if (changes.length === 0) return 0;
    this.db.transaction(() => {
      for (const [section, key, body] of changes) {
        if (body === undefined) this.remove.run(section, key);
        else this.upsert.run(section, key, ++this.pos, body);
      }
    })();
    for (const [section, key, body] of changes) {
      if (body === undefined) this.written.get(section)?.delete(key);
      else this.remember(section, key, body);
    }
    return changes.length;
  }

  close(): void {
    this.db.close();
  }

  private diff(section: string, rows: readonly Row[], changes: Change[]): void {
    const before = this.written.get(section);
    for (const [key, body] of rows) if (before?.get(key) !== body) changes.push([section, key, body]);
  }

  /** One row's record; a row this store never writes, or one that is not JSON, is refused naming the file. */
  private parseRow(r: { section: string; key: string; body: string }): unknown {
    const fix = 'delete it (and its -wal file) to start a new world, or restore a good copy';
    if (r.section !== 'whole' && KEYED[r.section] === undefined)
      throw new InputError(
        'state',
        `${this.path} holds a row of unknown section ${JSON.stringify(r.section)}: not a tradeloop sandbox state file? ${fix}`,
      );
    try {
      return JSON.parse(r.body) as unknown;
    } catch {
      throw new InputError('state', `${this.path}: the ${r.section} row ${JSON.stringify(r.key)} is not valid JSON: ${fix}`);
    }
  }

  /** Adds the records of a keyed section that differ from the disk (and, for quotes and balances, the rows gone). */
  private diffRecords(section: string, records: readonly object[], keyOf: (r: unknown) => string, changes: Change[]): void {
    const before = this.written.get(section);
    const seen = DELETABLE.has(section) ? new Set<string>() : undefined;
    for (const r of records) {
      if (this.settled.has(r)) continue;
      const key = keyOf(r);
      seen?.add(key);
      const reused = this.texts.has(r);
      const body = this.text(r);
      if (before?.get(key) !== body) changes.push([section, key, body]);
      else if (reused) this.settled.add(r);
    }
    if (seen === undefined || before === undefined) return;
    for (const key of before.keys()) if (!seen.has(key)) changes.push([section, key, undefined]);
  }

  /** JSON of a record; a record from the cache (final) is stringified once. */
  private text(record: object): string {
    const known = this.texts.get(record);
    if (known !== undefined) return known;
    const text = JSON.stringify(record);
    this.texts.set(record, text);
    return text;
  }

  private remember(section: string, key: string, body: string): void {
    let m = this.written.get(section);
    if (m === undefined) this.written.set(section, (m = new Map()));
    m.set(key, body);
  }
}
