import { type Clock } from '../../clock/clock.js';
import { LiveClock, ScaledClock } from '../../clock/live-clock.js';
import { loadConfigFile } from '../../config/load.js';
import { nonEmpty } from '../../config/environment.js';
import { CLIENT_ID_PATTERN, LocalSandboxConfigSchema, LogConfigSchema } from '../../config/schema.js';
import { InputError, TradeloopError } from '../../core/errors.js';
import { createLogger } from '../../log/logger.js';
import { SecretSet } from '../../log/redact.js';
import { type SandboxClient } from '../../sandbox/auth.js';
import { parseFaults } from '../../sandbox/faults.js';
import { parseRateLimits } from '../../sandbox/rate-limits.js';
import { type SandboxOptions, startSandbox } from '../../sandbox/server.js';
import { SHAPE_MODES, type ShapeMode } from '../../sandbox/wire.js';
import { newInstanceId } from '../../live/local-world.js';
import { loadPriceSeries } from '../../sim/prices/price-file.js';
import { type PriceSeriesLike } from '../../sim/prices/price-data.js';
import { type CliContext, writeLine } from '../context.js';
import { untilStopped } from '../signals.js';

import { SANDBOX_SECRET_ENV, type SandboxFlags } from './sandbox.js';

/** What `tradeloop sandbox` does once its flags are read (loaded only then: see sandbox.ts). */
export async function sandboxAction(flags: SandboxFlags, ctx: CliContext): Promise<void> {
  const file = flags.config === undefined ? undefined : loadConfigFile(flags.config);
  const local = file?.local ?? LocalSandboxConfigSchema.parse({});
  const log = file?.log ?? LogConfigSchema.parse({});
  const client = sandboxClient(flags, local.client_id, ctx.env);
  const secrets = new SecretSet();
  secrets.add(client?.clientSecret);
  const speed = flags.speed === undefined ? local.speed : positiveNumber(flags.speed, '--speed');
  const live = new LiveClock();
  const clock: Clock = speed === 1 ? live : new ScaledClock(live.now(), speed);
  const documents = flags.documents ?? local.documents;
  const shapes = flags.shapes === undefined ? local.shapes : shapeMode(flags.shapes);
  const handle = await startSandbox({
    port: flags.port === undefined ? local.port : integer(flags.port, '--port', 0, 65_535),
    seed: flags.seed === undefined ? local.seed : integer(flags.seed, '--seed', -2_147_483_648, 4_294_967_295),
    clock,
    // a new world's instance id (a restored --state keeps its own): random bytes, here at the composition root
    instanceId: newInstanceId(),
    funding: local.funding,
    logger: createLogger({ level: log.level, secrets, ...(log.pretty !== undefined ? { pretty: log.pretty } : {}) }),
    sim: {
      replay: replays(flags.replay),
      rules: { submitDelayMs: local.submit_delay_ms },
      ...(documents ? { platform: { documents } } : {}),
    },
    shapes,
    ...sandboxExtras(flags, local),
    ...(client !== undefined ? { clients: [client] } : {}),
  });
  writeLine(ctx.stdout, `sandbox listening on ${handle.url}`);
  writeLine(ctx.stdout, `faults: ${handle.faultSummary}`);
  writeLine(ctx.stdout, `rate limits: ${(flags.rateLimits ?? local.rate_limits) === 'off' ? 'off' : 'on'}`);
  const stateFile = flags.state ?? local.state;
  if (stateFile !== undefined) writeLine(ctx.stdout, `state: ${stateFile} (${handle.restored ? 'restored' : 'new'})`);
  if (documents) writeLine(ctx.stdout, 'identity documents: on');
  if (shapes !== 'schema') writeLine(ctx.stdout, `shapes: ${shapes} (the spec's examples, not its schemas)`);
  if (client !== undefined) writeLine(ctx.stdout, `client id: ${client.clientId}`);
  await untilStopped();
  await handle.close();
  writeLine(ctx.stderr, 'sandbox stopped');
}

/**
 * The credential replacing the development one: the id from `--client-id` (else config
 * local.client_id), the secret only from the environment (empty counts as unset, as for
 * TRADELOOP_CLIENT_SECRET). Undefined keeps the default. A secret without an id is refused too, so
 * an exported secret never leaves the public development credential silently in force.
 */
function sandboxClient(flags: SandboxFlags, configured: string | undefined, env: NodeJS.ProcessEnv): SandboxClient | undefined {
  if (flags.clientId !== undefined && !CLIENT_ID_PATTERN.test(flags.clientId))
    throw new InputError('--client-id', `expected a client id without spaces such as my-bot, got ${JSON.stringify(flags.clientId)}`);
  const clientId = flags.clientId ?? configured;
  const secret = nonEmpty(env[SANDBOX_SECRET_ENV]);
  const source = flags.clientId !== undefined ? '--client-id' : `local.client_id in ${flags.config ?? 'the config'}`;
  if (clientId === undefined) {
    if (secret !== undefined)
      throw new InputError(
        SANDBOX_SECRET_ENV,
        'is set but no client id is given: pass --client-id ID (or set local.client_id), or unset it to accept the default credential tradeloop-local',
      );
    return undefined;
  }
  if (secret === undefined)
    throw new TradeloopError(
      'SECRET_MISSING',
      `${source} ${clientId} needs its secret in the environment variable ${SANDBOX_SECRET_ENV}: export it (secrets are never read from files or flags)`,
    );
  return { clientId, clientSecret: secret };
}

/**
 * Faults, rate limits, state file and truth API from flags, falling back to the config's local
 * section. A bad faults or rate-limits value is reported against where it came from: the flag, or
 * the config field and its file.
 */
function sandboxExtras(
  flags: SandboxFlags,
  local: { faults?: string | undefined; state?: string | undefined; rate_limits: string; truth_api: boolean },
): Pick<SandboxOptions, 'faults' | 'rateLimits' | 'stateFile' | 'truthApi'> {
  const inFile = (field: string): string => `local.${field} in ${flags.config ?? 'the config'}`;
  const faultText = flags.faults ?? local.faults;
  const faultSource = flags.faults !== undefined ? '--faults' : inFile('faults');
  const rateSource = flags.rateLimits !== undefined ? '--rate-limits' : inFile('rate_limits');
  const rateLimits = relabel(rateSource, () => parseRateLimits(flags.rateLimits ?? local.rate_limits));
  const stateFile = flags.state ?? local.state;
  return {
    ...(faultText !== undefined ? { faults: relabel(faultSource, () => parseFaults(faultText)) } : {}),
    ...(rateLimits !== undefined ? { rateLimits } : {}),
    ...(stateFile !== undefined ? { stateFile } : {}),
    truthApi: flags.truth ?? local.truth_api,
  };
}

/** Runs `parse`, re-raising its InputError under `source` (the flag or the config field it read). */
function relabel<T>(source: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    // InputError's message is always "<field>: <detail>"
    throw new InputError(source, err.message.slice(err.field.length + 2), { cause: err });
  }
}

function shapeMode(value: string): ShapeMode {
  if (!(SHAPE_MODES as readonly string[]).includes(value))
    throw new InputError(
      '--shapes',
      `expected schema (the OpenAPI schemas) or examples (the spec's examples), got ${JSON.stringify(value)}`,
    );
  return value as ShapeMode;
}

function replays(specs: readonly string[]): Record<string, { series: PriceSeriesLike }> {
  const out: Record<string, { series: PriceSeriesLike }> = {};
  for (const spec of specs) {
    const m = /^([A-Z]{5,10})=(.+)$/.exec(spec);
    if (m === null) throw new InputError('--replay', `expected MARKET=FILE such as BTCUSD=prices.csv, got ${JSON.stringify(spec)}`);
    out[m[1]!] = { series: loadPriceSeries(m[2]!) };
  }
  return out;
}

function integer(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || n < min || n > max)
    throw new InputError(flag, `expected an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

function positiveNumber(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new InputError(flag, `expected a number greater than 0 such as 10, got ${JSON.stringify(value)}`);
  return n;
}
