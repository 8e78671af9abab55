import { type Command } from 'commander';
import { CliExit, type CliContext, writeLine } from '../context.js';
import { actionText, readText } from '../ctl-tables.js';
import { ctlTarget, type CtlTargetOptions } from '../ctl-target.js';

const READS = ['status', 'strategies', 'positions', 'orders'] as const;
const ACTIONS = [...READS, 'halt', 'resume', 'pause', 'cancel-all', 'stop', 'exit'] as const;
/** The actions that name a strategy (resume without one lifts an operator's halt). */
const WITH_STRATEGY: readonly string[] = ['exit', 'pause', 'resume'];

/** Node's codes for a certificate the client does not trust or that names another host. */
const UNTRUSTED_CERTIFICATE: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
type Action = (typeof ACTIONS)[number];

interface CtlOptions extends CtlTargetOptions {
  readonly killSwitch?: boolean;
  readonly reason?: string;
  readonly market?: string;
  readonly json?: boolean;
}

/**
 * `tradeloop ctl ACTION`: the control API of a bot started with `tradeloop run --ui`, from another
 * terminal: status, strategies, positions and orders as tables (--json: the API's JSON), halt, resume
 * (--kill-switch after a kill-switch trip), pause STRATEGY and resume STRATEGY, cancel-all, stop,
 * exit STRATEGY [--market M] (an operator's forced exit of one strategy's own position). The bot is
 * found from the dashboard file beside its journal (or --url); the token is TRADELOOP_UI_TOKEN, as the run's.
 */
export function registerCtl(program: Command, ctx: CliContext): void {
  program
    .command('ctl')
    .description(
      'control a bot running with --ui: status, strategies, positions, orders, halt, resume, pause/resume STRATEGY, cancel-all, stop, exit STRATEGY (token: TRADELOOP_UI_TOKEN)',
    )
    .argument('<action>', ACTIONS.join(' | '))
    .argument(
      '[strategy]',
      'exit: the strategy whose own position is sold (a MARKET sell through the risk gate); pause/resume: the strategy paused or resumed',
    )
    .option(
      '--url <url>',
      "the bot's dashboard address: http://, or https:// behind a TLS proxy (a private CA: NODE_EXTRA_CA_CERTS); default: read from beside the journal",
    )
    .option('--journal <file>', "find the bot from this journal's folder (the address its run wrote beside it)")
    .option(
      '-c, --config <file>',
      "find the bot from this config's journal.path (default: ./config/default.yaml, else .tradeloop/journal.sqlite)",
    )
    .option(
      '--kill-switch',
      'resume: also lift a kill-switch trip (a loss or drawdown limit, orphans at start); a ref_id conflict needs a restart',
    )
    .option('--reason <text>', 'halt: the reason recorded with the halt')
    .option('--market <market>', 'exit: only this market of the strategy (default: every market it trades)')
    .option('--json', 'print the answer as JSON')
    .action(async (action: string, strategy: string | undefined, opts: CtlOptions) => {
      if (!(ACTIONS as readonly string[]).includes(action))
        throw new CliExit(2, `error: unknown action ${JSON.stringify(action)}: use one of ${ACTIONS.join(', ')}`);
      const a = action as Action;
      if (opts.killSwitch && (a !== 'resume' || strategy !== undefined))
        throw new CliExit(2, 'error: --kill-switch goes with resume (of trading, without a strategy) only');
      if (opts.reason !== undefined && a !== 'halt') throw new CliExit(2, 'error: --reason goes with halt only');
      if ((a === 'exit' || a === 'pause') && strategy === undefined)
        throw new CliExit(
          2,
          `error: ${a} needs the strategy to ${a}: tradeloop ctl ${a} STRATEGY${a === 'exit' ? ' [--market BTCUSD]' : ''}`,
        );
      if (strategy !== undefined && !WITH_STRATEGY.includes(a))
        throw new CliExit(2, 'error: a strategy goes with exit, pause and resume only');
      if (opts.market !== undefined && a !== 'exit') throw new CliExit(2, 'error: --market goes with exit only');
      const token = ctx.env.TRADELOOP_UI_TOKEN;
      if (token === undefined || token === '')
        throw new CliExit(
          2,
          "error: TRADELOOP_UI_TOKEN is not set: export the run's token (set the same variable for the run, or copy the token it printed with the dashboard's URL)",
        );
      const base = await ctlTarget(opts);
      const read = (READS as readonly string[]).includes(a);
      const body = read
        ? undefined
        : strategy !== undefined
          ? { strategy, ...(opts.market !== undefined && { market: opts.market }) }
          : a === 'resume' && opts.killSwitch
            ? { kill_switch: true }
            : a === 'halt' && opts.reason !== undefined
              ? { reason: opts.reason }
              : {};
      const { res, answer, text } = await call(base, a, token, body);
      if (res.status === 401)
        throw new CliExit(2, `error: the bot at ${base.origin} refused the token: TRADELOOP_UI_TOKEN must be the token of that run`);
      if (!res.ok) {
        const detail =
          typeof answer === 'object' && answer !== null
            ? ((answer as { error?: string; detail?: string }).error ?? (answer as { detail?: string }).detail ?? text)
            : text;
        if (res.status === 404 && detail.startsWith('no such endpoint'))
          throw new CliExit(1, `error: the bot at ${base.origin} has no ${a} (${detail}): it runs an older tradeloop`);
        if (res.status === 404 && strategy !== undefined)
          throw new CliExit(1, `error: unknown strategy ${JSON.stringify(strategy)}: ${detail}`);
        throw new CliExit(1, `error: ${a} answered ${res.status}: ${detail}`);
      }
      if (opts.json) writeLine(ctx.stdout, JSON.stringify(answer));
      else writeLine(ctx.stdout, read ? readText(a as (typeof READS)[number], answer) : actionText(a, answer));
    });
}

/** One request to the control API: a GET for a read, else a POST of `body`; connection failures in our words. */
async function call(
  base: URL,
  a: Action,
  token: string,
  body: Record<string, unknown> | undefined,
): Promise<{ res: Response; answer: unknown; text: string }> {
  let res: Response;
  try {
    res = await fetch(new URL(`/api/${a}`, base), {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (e) {
    const cause =
      (e as Error).cause instanceof Error ? ((e as Error).cause as Error & { code?: unknown }) : (e as Error & { code?: unknown });
    if (typeof cause.code === 'string' && UNTRUSTED_CERTIFICATE.has(cause.code)) {
      throw new CliExit(
        1,
        `error: the TLS certificate of ${base.origin} is not trusted (${cause.message}): give ctl the certificate of the authority that signed it with NODE_EXTRA_CA_CERTS=/path/to/ca.pem (a self-signed certificate is its own authority), or check the host name in --url`,
      );
    }
    throw new CliExit(
      1,
      `error: no bot answers at ${base.origin} (${cause.message}): is it running with --ui, and on that address (--url)?`,
    );
  }
  const text = await res.text();
  let answer: unknown = text;
  try {
    answer = JSON.parse(text);
  } catch {
    // not JSON: shown as it is
  }
  return { res, answer, text };
}
