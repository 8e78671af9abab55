import pino, { type Logger, type LoggerOptions, type DestinationStream } from 'pino';
import { CENSOR, redactDeep, type SecretSet } from './redact.js';

export type { Logger } from 'pino';

export interface LoggerConfig {
  readonly level?: string;
  /** Human-readable output; defaults to true when stderr is a TTY. */
  readonly pretty?: boolean;
  /** Where lines go; defaults to stderr (stdout is reserved for command results). */
  readonly destination?: DestinationStream;
  /**
   * A file to append lines to instead of stderr (the live panel owns the terminal): human-readable
   * without colours unless `pretty` is false (JSON lines). The folder is made when missing.
   */
  readonly file?: string;
  /** Secret values to mask wherever they appear. */
  readonly secrets?: SecretSet;
  readonly name?: string;
  /** Also hears every line written (JSON, already redacted): the dashboard's log view keeps the last ones. */
  readonly tap?: { write(line: string): void };
}

/** Paths pino censors directly; `redactDeep` covers deeper and unexpected places. */
const REDACT_PATHS = [
  'authorization',
  'client_secret',
  'access_token',
  'token',
  'headers.authorization',
  'req.headers.authorization',
  'request.headers.authorization',
  '*.authorization',
  '*.client_secret',
  '*.access_token',
  '*.headers.authorization',
];

/**
 * Creates the root logger: JSON lines on stderr by default, pretty on a TTY, or lines appended to
 * `file` (human-readable unless `pretty` is false); Authorization headers,
 * client secrets and access tokens are censored wherever they appear. Components take a child
 * logger (`logger.child({ component })`), never a global.
 */
export function createLogger(config: LoggerConfig = {}): Logger {
  const pretty = config.pretty ?? (process.stderr.isTTY === true && config.destination === undefined);
  const secrets = config.secrets;
  const options: LoggerOptions = {
    level: config.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    formatters: {
      log: (obj) => redactDeep(obj, secrets) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        const scrubbed = args.map((a) => redactDeep(a, secrets)) as Parameters<typeof method>;
        method.apply(this, scrubbed);
      },
    },
    serializers: {
      err: (e: unknown) => redactDeep(e, secrets),
    },
  };
  if (config.name) options.name = config.name;
  const to = (dest: DestinationStream): Logger =>
    pino(
      options,
      config.tap
        ? pino.multistream([
            { level: 'trace', stream: dest },
            { level: 'trace', stream: config.tap },
          ])
        : dest,
    );
  if (config.destination) return to(config.destination);
  if (config.file !== undefined) {
    if (config.pretty === false) return to(pino.destination({ dest: config.file, sync: false, mkdir: true }));
    const transport = pino.transport({
      target: 'pino-pretty',
      options: { destination: config.file, mkdir: true, append: true, colorize: false, translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l' },
    });
    return to(transport);
  }
  if (pretty) {
    const transport = pino.transport({
      target: 'pino-pretty',
      options: { destination: 2, colorize: true, translateTime: 'SYS:HH:MM:ss.l' },
    });
    return to(transport);
  }
  return to(pino.destination({ fd: 2, sync: true }));
}

/** A logger that drops everything (tests, benchmarks). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
