import { readFileSync } from 'node:fs';
import {
  ApiError,
  TRADING_BOT_SCOPES,
  UnsafeTargetError,
  createApiClientFromConfig,
  findOperation,
  OPERATIONS,
  type ApiClient,
} from '../../api/index.js';
import type { OperationSpec } from '../../api/operation-spec.js';
import { configLabel, loadConfig } from '../../config/locate.js';
import { InputError } from '../../core/errors.js';
import { createLogger } from '../../log/logger.js';
import { SecretSet } from '../../log/redact.js';
import { CliExit, type CliContext, writeLine } from '../context.js';
import { apiTargetOf } from '../failures.js';

import type { ApiFlags } from './api.js';

/** What `tradeloop api` does once its flags are read (loaded only then: see api.ts). */
export async function apiAction(operationId: string | undefined, params: string[], flags: ApiFlags, ctx: CliContext): Promise<void> {
  if (flags.list) return listOperations(ctx);
  if (operationId === undefined) throw new CliExit(2, 'error: give an operationId (tradeloop api --list shows them) or --list');
  const spec = findOperation(operationId);
  if (!spec) throw new CliExit(2, `error: unknown operation ${JSON.stringify(operationId)}: tradeloop api --list shows the names`);
  const { path, query } = parseParams(spec, params);
  const body = parseBody(flags.body);
  if (flags.all && spec.paging === 'none') throw new InputError('--all', `${spec.id} is not paged: drop --all`);
  const client = buildClient(spec, flags, ctx);
  try {
    const input = { path, query, body };
    const result = flags.all ? await client.listAll(spec.id, input) : await client.call(spec.id, input);
    writeLine(ctx.stdout, JSON.stringify(result, null, 2));
  } catch (err) {
    throw reportFailure(err, ctx);
  } finally {
    await client.close();
  }
}

function listOperations(ctx: CliContext): void {
  const lines: string[] = [];
  for (const op of OPERATIONS) {
    const notes = [
      op.scope ?? 'public',
      op.paging !== 'none' ? `paged:${op.paging}` : '',
      op.sandboxOnly ? 'sandbox-only' : '',
      op.legacy ? 'older-api-only' : '',
    ]
      .filter(Boolean)
      .join(' ');
    lines.push(`${op.id.padEnd(30)} ${op.method.padEnd(6)} ${op.path.padEnd(52)} ${notes}`.trimEnd());
  }
  writeLine(ctx.stdout, lines.join('\n'));
}

function buildClient(spec: OperationSpec, flags: ApiFlags, ctx: CliContext): ApiClient {
  const { config, source } = loadConfig(flags.config);
  const secrets = new SecretSet();
  const logger = createLogger({ level: config.log.level, destination: ctx.stderr, secrets, pretty: false });
  // which config was used goes to the log (debug): stderr stays for failures, stdout for the JSON answer
  logger.debug(`config: ${configLabel(source)}`);
  const target = apiTargetOf(config, configLabel(source), flags);
  if (target !== undefined) ctx.apiTarget = target;
  const scopes = [...new Set([...(config.api.scopes ?? TRADING_BOT_SCOPES), ...(spec.scope ? [spec.scope] : [])])];
  try {
    return createApiClientFromConfig(config, ctx.env, {
      ...(flags.baseUrl !== undefined ? { apiUrl: flags.baseUrl } : {}),
      ...(flags.tokenUrl !== undefined ? { tokenUrl: flags.tokenUrl } : {}),
      scopes,
      logger,
      secrets,
      maxRetryWaitMs: 30_000,
    });
  } catch (err) {
    if (err instanceof UnsafeTargetError) throw new CliExit(2, `error: ${err.message}`);
    throw err;
  }
}

/**
 * API errors with an HTTP status print their problem JSON on stderr and exit 1. A failed token
 * request first prints a line saying so, with the reason (refused credential, wrong token URL …):
 * the problem JSON alone would read like the operation's own answer.
 */
function reportFailure(err: unknown, ctx: CliContext): unknown {
  if (!(err instanceof ApiError)) return err;
  // no answer at all (refused, unknown host, unreachable): the CLI names the host and the setting behind it
  if (err.status === undefined) return err;
  if (err.operation === 'OAuthToken')
    writeLine(ctx.stderr, `error [${err.code}]: the token request failed, no call was made: ${err.message}`);
  const problem = err.problem ?? { title: err.message, status: err.status };
  writeLine(ctx.stderr, JSON.stringify({ ...problem, status: problem.status ?? err.status }));
  return new CliExit(1);
}

/** Path parameters, query and body parsed from `tradeloop api` flags. */
export interface ParsedCall {
  readonly path: Record<string, string>;
  readonly query: Record<string, string | string[]>;
  readonly body: unknown;
}

/**
 * Turns `--name value`, `--name=value` and bare `--flag` (booleans) into the operation's path and
 * query parameters, by their wire names verbatim. Array parameters repeat; anything else may be
 * given once. Unknown names are usage errors listing the valid ones.
 */
export function parseParams(spec: OperationSpec, tokens: readonly string[]): Pick<ParsedCall, 'path' | 'query'> {
  const path: Record<string, string> = {};
  const query: Record<string, string | string[]> = {};
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!token.startsWith('--'))
      throw new InputError(token, `unexpected argument: give parameters as --name value (see tradeloop api ${spec.id} --help)`);
    const eq = token.indexOf('=');
    const name = token.slice(2, eq < 0 ? undefined : eq);
    const param = spec.query[name];
    const isPath = spec.pathParams.includes(name);
    if (!param && !isPath) throw new InputError(`--${name}`, `not a parameter of ${spec.id}: use ${paramNames(spec) || 'no parameters'}`);
    let value: string;
    if (eq >= 0) value = token.slice(eq + 1);
    else if (param?.kind === 'bool' && (tokens[i + 1] === undefined || tokens[i + 1]!.startsWith('--'))) value = 'true';
    else if (tokens[i + 1] === undefined) throw new InputError(`--${name}`, 'needs a value');
    else value = tokens[++i]!;
    if (isPath) {
      if (name in path) throw new InputError(`--${name}`, 'may be given only once');
      path[name] = value;
    } else if (param?.kind === 'array') {
      const prev = query[name];
      query[name] = [...(Array.isArray(prev) ? prev : []), value];
    } else {
      if (name in query) throw new InputError(`--${name}`, `may be given only once (only array parameters repeat)`);
      query[name] = value;
    }
  }
  return { path, query };
}

/** `--body JSON` or `--body @file`. */
export function parseBody(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  let text = raw;
  if (raw.startsWith('@')) {
    try {
      text = readFileSync(raw.slice(1), 'utf8');
    } catch (e) {
      throw new InputError(
        '--body',
        `cannot read ${raw.slice(1)} (${(e as NodeJS.ErrnoException).code ?? 'error'}): check the path after @`,
      );
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InputError('--body', 'is not valid JSON: give e.g. --body \'{"nickname":"grid"}\' or --body @file.json');
  }
}

/** "--market <value>, --limit <int>, --ref_ids <value>…" for help and errors. */
export function paramNames(spec: OperationSpec): string {
  const path = spec.pathParams.map((p) => `--${p} <value>`);
  const query = Object.entries(spec.query).map(
    ([name, p]) =>
      `--${name} <${p.kind === 'array' ? 'value>…' : `${p.kind === 'scalar' ? 'value' : p.kind}>`}${p.required ? ' (required)' : ''}`,
  );
  return [...path, ...query].join(', ');
}
