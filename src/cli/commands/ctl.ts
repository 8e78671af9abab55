import { type Command } from 'commander';
import { CliExit, type CliContext, writeLine } from '../context.js';

const ACTIONS = ['status', 'halt', 'resume', 'cancel-all', 'stop', 'exit'] as const;

/** Node's codes for a certificate the client does not trust or that names another host. */
const UNTRUSTED_CERTIFICATE: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_UNTRUSTED', 'ERR_TLS_CERT_ALTNAME_INVALID',
]);
type Action = (typeof ACTIONS)[number];

interface CtlOptions {
  readonly url: string;
  readonly killSwitch?: boolean;
  readonly reason?: string;
  readonly market?: string;
  readonly json?: boolean;
}

/**
 * `tradeloop ctl ACTION`: the control API of a bot started with `tradeloop run --ui`, from another
 * terminal: status, halt, resume (--kill-switch after a kill-switch trip), cancel-all, stop, exit STRATEGY
 * [--market M] (an operator's forced exit of one strategy's own position). The token is
 * TRADELOOP_UI_TOKEN, as the run's.
 */
export function registerCtl(program: Command, ctx: CliContext): void {
  program
    .command('ctl')
    .description('control a bot running with --ui: status, halt, resume, cancel-all, stop, exit STRATEGY (token: TRADELOOP_UI_TOKEN)')
    .argument('<action>', ACTIONS.join(' | '))
    .argument('[strategy]', 'exit: the strategy whose own position is sold (a MARKET sell through the risk gate)')
    .option('--url <url>', "the bot's dashboard address: http://, or https:// behind a TLS proxy (a private CA: NODE_EXTRA_CA_CERTS)", 'http://127.0.0.1:8787')
    .option('--kill-switch', 'resume: also lift a kill-switch trip (a loss or drawdown limit, orphans at start); a ref_id conflict needs a restart')
    .option('--reason <text>', 'halt: the reason recorded with the halt')
    .option('--market <market>', 'exit: only this market of the strategy (default: every market it trades)')
    .option('--json', 'print the answer as JSON')
    .action(async (action: string, strategy: string | undefined, opts: CtlOptions) => {
      if (!(ACTIONS as readonly string[]).includes(action)) throw new CliExit(2, `error: unknown action ${JSON.stringify(action)}: use one of ${ACTIONS.join(', ')}`);
      if (opts.killSwitch && action !== 'resume') throw new CliExit(2, 'error: --kill-switch goes with resume only');
      if (opts.reason !== undefined && action !== 'halt') throw new CliExit(2, 'error: --reason goes with halt only');
      if (action === 'exit' && strategy === undefined) throw new CliExit(2, 'error: exit needs the strategy to exit: tradeloop ctl exit STRATEGY [--market BTCUSD]');
      if ((strategy !== undefined || opts.market !== undefined) && action !== 'exit') throw new CliExit(2, 'error: a strategy and --market go with exit only');
      const token = ctx.env.TRADELOOP_UI_TOKEN;
      if (token === undefined || token === '') throw new CliExit(2, "error: TRADELOOP_UI_TOKEN is not set: export the run's token (set the same variable for the run, or copy the token it printed with the dashboard's URL)");
      let base: URL;
      try {
        base = new URL(opts.url);
        if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('not http');
      } catch {
        throw new CliExit(2, `error: --url ${JSON.stringify(opts.url)} is not an http:// or https:// address such as http://127.0.0.1:8787 (or https://bot.example.com behind a TLS proxy)`);
      }
      const a = action as Action;
      const body = a === 'exit' ? { strategy, ...(opts.market !== undefined && { market: opts.market }) } : a === 'resume' && opts.killSwitch ? { kill_switch: true } : a === 'halt' && opts.reason !== undefined ? { reason: opts.reason } : a === 'status' ? undefined : {};
      let res: Response;
      try {
        res = await fetch(new URL(`/api/${a}`, base), {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
          ...(body !== undefined && { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (e) {
        const cause = (e as Error).cause instanceof Error ? ((e as Error).cause as Error & { code?: unknown }) : (e as Error & { code?: unknown });
        if (typeof cause.code === 'string' && UNTRUSTED_CERTIFICATE.has(cause.code)) {
          throw new CliExit(1, `error: the TLS certificate of ${base.origin} is not trusted (${cause.message}): give ctl the certificate of the authority that signed it with NODE_EXTRA_CA_CERTS=/path/to/ca.pem (a self-signed certificate is its own authority), or check the host name in --url`);
        }
        throw new CliExit(1, `error: no bot answers at ${base.origin} (${cause.message}): is it running with --ui, and on that address (--url)?`);
      }
      const text = await res.text();
      let answer: unknown = text;
      try {
        answer = JSON.parse(text);
      } catch {
        // not JSON: shown as it is
      }
      if (res.status === 401) throw new CliExit(2, `error: the bot at ${base.origin} refused the token: TRADELOOP_UI_TOKEN must be the token of that run`);
      if (!res.ok) {
        const detail = typeof answer === 'object' && answer !== null ? ((answer as { error?: string; detail?: string }).error ?? (answer as { detail?: string }).detail ?? text) : text;
        throw new CliExit(1, `error: ${a} answered ${res.status}: ${detail}`);
      }
      if (opts.json || a === 'status') {
        writeLine(ctx.stdout, JSON.stringify(answer, null, opts.json ? 0 : 2));
        return;
      }
      writeLine(ctx.stdout, `${a}: done (${res.status})${typeof answer === 'object' && answer !== null ? ` ${JSON.stringify(answer)}` : ''}`);
    });
}
