/**
 * Where a running bot's dashboard is, for `tradeloop ctl` on the same machine: a small JSON file
 * beside the journal (`<journal>.dashboard.json`) with the dashboard's URL, the run's pid and its start
 * time, never the token. Written atomically (a temporary file renamed over it) once the dashboard
 * listens, removed on a clean exit; a file whose pid is gone (the run was killed) is stale, and `ctl`
 * says no bot runs. Node built-ins only: `ctl` reads it without loading the project's heavy modules.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

export interface DashboardInfo {
  readonly url: string;
  readonly pid: number;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly journal: string;
}

/** What `findDashboard` found for a journal. */
export type DashboardFound =
  | { readonly kind: 'running'; readonly file: string; readonly info: DashboardInfo }
  | { readonly kind: 'none'; readonly file: string }
  | { readonly kind: 'stale'; readonly file: string; readonly info: DashboardInfo }
  | { readonly kind: 'unreadable'; readonly file: string; readonly reason: string };

export function dashboardFileOf(journal: string): string {
  return `${journal}.dashboard.json`;
}

/** Writes the file for `info.journal` atomically (readers never see half a file); returns its path. */
export function writeDashboardFile(info: DashboardInfo): string {
  const file = dashboardFileOf(info.journal);
  const tmp = `${file}.${info.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return file;
}

/** Removes the journal's file when it is still this process's (a later run's file is left alone). */
export function removeDashboardFile(journal: string, pid: number = process.pid): void {
  const found = readDashboardFile(dashboardFileOf(journal));
  if (found !== undefined && typeof found !== 'string' && found.pid === pid) rmSync(dashboardFileOf(journal), { force: true });
}

/** The dashboard of the bot running on `journal`, or why there is none. */
export function findDashboard(journal: string, alive: (pid: number) => boolean = pidAlive): DashboardFound {
  const file = dashboardFileOf(journal);
  const info = readDashboardFile(file);
  if (info === undefined) return { kind: 'none', file };
  if (typeof info === 'string') return { kind: 'unreadable', file, reason: info };
  return alive(info.pid) ? { kind: 'running', file, info } : { kind: 'stale', file, info };
}

/** The file's content, undefined when it does not exist, or why it cannot be read. */
function readDashboardFile(file: string): DashboardInfo | string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return (e as NodeJS.ErrnoException).code ?? 'unreadable';
  }
  try {
    const v = JSON.parse(text) as Partial<DashboardInfo>;
    if (typeof v.url === 'string' && typeof v.pid === 'number' && typeof v.startedAt === 'string' && typeof v.journal === 'string')
      return v as DashboardInfo;
  } catch {
    // not JSON: said below
  }
  return 'not a dashboard file (expected {"url", "pid", "startedAt", "journal"})';
}

/** Whether a process with this pid exists (EPERM: it does, owned by another user). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
