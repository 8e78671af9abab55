/**
 * The run's last log records, for the dashboard's log view and `GET /api/log`: a bounded ring fed
 * with the logger's lines (see LoggerConfig.tap), which the logger has already redacted; every text
 * is scrubbed of the run's secrets again as it is read, so a secret can never reach the page.
 */
import type { SecretSet } from '../log/index.js';
import { Ring } from './ring.js';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** pino's numbers for its levels. */
const LEVEL_NUMBER: Readonly<Record<LogLevel, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

export interface LogRecord {
  readonly at: number;
  readonly level: LogLevel;
  readonly msg: string;
  readonly component?: string;
  /** The error's message, when the record carries one. */
  readonly err?: string;
}

export class LogTail {
  private readonly ring: Ring<LogRecord>;
  /** The time of the last record that said (a line that does not parse takes it: pino always writes one). */
  private lastAt = 0;

  constructor(
    capacity = 500,
    private readonly secrets?: SecretSet,
  ) {
    this.ring = new Ring(capacity);
  }

  /** One JSON line from the logger (a line that does not parse is kept as its text). */
  write(line: string): void {
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      this.ring.push({ at: this.lastAt, level: 'info', msg: line.trim() });
      return;
    }
    const level = LOG_LEVELS.find((l) => LEVEL_NUMBER[l] === o.level) ?? 'info';
    if (typeof o.time === 'number') this.lastAt = o.time;
    const err = o.err as { message?: unknown } | undefined;
    this.ring.push({
      at: this.lastAt,
      level,
      msg: typeof o.msg === 'string' ? o.msg : '',
      ...(typeof o.component === 'string' && { component: o.component }),
      ...(typeof err?.message === 'string' && { err: err.message }),
    });
  }

  /** The latest `limit` records at `level` or above, newest first, scrubbed of the run's secrets. */
  records(level: LogLevel = 'trace', limit = 200): LogRecord[] {
    const min = LEVEL_NUMBER[level];
    const scrub = (t: string): string => (this.secrets ? this.secrets.scrub(t) : t);
    return this.ring
      .list()
      .filter((r) => LEVEL_NUMBER[r.level] >= min)
      .slice(-limit)
      .reverse()
      .map((r) => ({ ...r, msg: scrub(r.msg), ...(r.err !== undefined && { err: scrub(r.err) }) }));
  }
}

/** A level named in a query (`?level=warn`), or why it is refused. */
export function logLevelOf(raw: string | null): LogLevel | string {
  if (raw === null || raw === '') return 'trace';
  const l = raw.toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(l)
    ? (l as LogLevel)
    : `level must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(raw)})`;
}
