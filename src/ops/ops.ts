/**
 * Operating a running bot, assembled in one place for `tradeloop run`: the operations server
 * (dashboard, control API, /metrics) when `--ui` or `ui:` asks for it, and webhook notifications when
 * TRADELOOP_NOTIFY_URL is set. `prepareOps` checks the settings and secrets before anything starts
 * (bad input costs nothing); `start` attaches to the run once it trades; `stop` sends the run-stop
 * notification (briefly waiting for delivery) and closes everything.
 */
import type { ResponseEvent } from '../api/index.js';
import { LiveClock } from '../clock/index.js';
import { InputError } from '../core/index.js';
import type { Config } from '../config/index.js';
import type { JournalStore } from '../exec/index.js';
import type { Logger, SecretSet } from '../log/index.js';
import { uiTokenFrom, UI_TOKEN_VARIABLE, isLoopback, type UiToken } from './auth.js';
import { redactConfig } from './config-view.js';
import { instrumentJournal } from './journal-timing.js';
import type { LogTail } from './log-tail.js';
import { RunMetrics } from './metrics.js';
import { NOTIFY_SECRET_VARIABLE, NOTIFY_URL_VARIABLE, Notifier } from './notify/notifier.js';
import { RunNotifications } from './notify/run-notifications.js';
import { OpsState } from './ops-state.js';
import type { OpsRun } from './run-port.js';
import { startOpsServer, type OpsServer } from './server.js';

/** How long a run's exit waits for its run-stop notification (and what is queued before it). */
export const STOP_NOTIFY_WAIT_MS = 5_000;

export interface OpsSettings {
  readonly config: Pick<Config, 'ui' | 'notify'>;
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  /** The run's secret set: the token, the webhook URL and secret are added so logs mask them. */
  readonly secrets?: SecretSet;
  /** `--ui`: serve even without a `ui:` section (or with `enabled: false`). */
  readonly ui?: boolean;
  /** The run's last log records (the logger's tap), shown by the dashboard's log view. */
  readonly logTail?: LogTail;
}

export interface OpsStarted {
  /** The dashboard's URL without the token, when served. */
  readonly url?: string;
  /** The URL with the run's own token in its fragment: printed once, never logged (absent when the token came from the environment). */
  readonly urlWithToken?: string;
}

export class Ops {
  readonly metrics = new RunMetrics();
  private server: OpsServer | undefined;
  private state: OpsState | undefined;
  private notifier: Notifier | undefined;
  private notifications: RunNotifications | undefined;
  private startInfo: Record<string, unknown> | undefined;
  private run: OpsRun | undefined;

  private constructor(
    private readonly s: OpsSettings,
    private readonly token: UiToken | undefined,
    private readonly webhook: { readonly url: string; readonly secret: string } | undefined,
  ) {}

  /** Ops for this run's settings, or undefined when neither the server nor notifications are asked for. */
  static prepare(s: OpsSettings): Ops | undefined {
    const serve = s.ui === true || (s.config.ui !== undefined && s.config.ui.enabled);
    const webhook = webhookFrom(s.env, s.config.notify !== undefined);
    if (!serve && !webhook) return undefined;
    let token: UiToken | undefined;
    if (serve) {
      token = uiTokenFrom(s.env);
      s.secrets?.add(token.value);
    }
    if (webhook) {
      s.secrets?.add(webhook.url);
      s.secrets?.add(webhook.secret);
    }
    return new Ops(s, token, webhook);
  }

  /** Counts the client's answers (429s). */
  readonly onResponse = (e: ResponseEvent): void => {
    if (e.status === 429) {
      this.metrics.observeRateLimited();
      if (this.state) this.state.rateLimited++;
    }
  };

  /** The journal with its writes timed for /metrics (the same journal). */
  journal<J extends JournalStore>(journal: J): J {
    return instrumentJournal(journal, (op, seconds) => this.metrics.observeJournalWrite(op, seconds));
  }

  /** Attaches to the run (before it starts trading): serves the dashboard and follows the run for /metrics and notifications. */
  async start(run: OpsRun, info: { readonly refPrefix: string; readonly environment: string }): Promise<OpsStarted> {
    this.run = run;
    // the config as shown: the whole run's config when the run passes it, secrets hidden
    const state = (this.state = new OpsState(run, { ...(this.s.logTail && { logTail: this.s.logTail }), config: redactConfig(this.s.config, this.s.secrets) }));
    const cfg = this.s.config;
    if (this.webhook) {
      const n = cfg.notify;
      this.notifier = new Notifier({
        // wall time: deliveries talk to a real receiver, whatever the run's (possibly accelerated) clock
        clock: new LiveClock(), url: this.webhook.url, secret: this.webhook.secret, source: info.refPrefix,
        events: n?.events ?? ['fill', 'kill-switch', 'unresolved', 'strategy-stopped', 'venue-unreachable', 'journal-failed', 'run-start', 'run-stop'],
        capacity: n?.queue_size ?? 1_000, timeoutMs: n?.timeout_ms ?? 5_000, maxAttempts: n?.max_attempts ?? 6,
        log: this.s.log.child({ component: 'notify' }),
      });
      this.notifications = new RunNotifications(run, this.notifier);
      this.startInfo = { environment: info.environment, strategies: run.strategies.map((x) => x.name) };
    }
    const notifier = this.notifier;
    this.metrics.attach(run, state, notifier ? { notify: () => notifier.stats() } : {});
    if (!this.token) return {};
    const host = cfg.ui?.host ?? '127.0.0.1';
    if (!isLoopback(host)) this.s.log.warn(`the dashboard listens on ${host}, beyond this machine: its token crosses the network in plain HTTP (put it behind TLS)`);
    this.server = await startOpsServer({ host, port: cfg.ui?.port ?? 8787, token: this.token.value, run, state, metrics: this.metrics, log: this.s.log.child({ component: 'ops' }) });
    this.s.log.info(`dashboard and control API on ${this.server.url} (token ${this.token.generated ? 'made for this run, printed once' : `from ${UI_TOKEN_VARIABLE}`})`);
    return { url: this.server.url, ...(this.token.generated && { urlWithToken: `${this.server.url}#token=${this.token.value}` }) };
  }

  /** Sends run-start (once the run trades). */
  announceStart(): void {
    if (this.startInfo) this.notifications?.runStarted({ ...this.startInfo, at: this.run?.clock.now() });
  }

  /** Sends run-stop with the summary, waits a little for delivery, closes the server and the notifier. */
  async stop(summary: Record<string, unknown>): Promise<void> {
    this.notifications?.runStopped(summary);
    this.notifications?.close();
    await this.notifier?.flush(STOP_NOTIFY_WAIT_MS);
    this.notifier?.close();
    await this.server?.close();
    this.state?.close();
    this.metrics.close();
  }
}

/** The webhook's URL and secret from the environment; a `notify:` section without them is an error naming them. */
function webhookFrom(env: NodeJS.ProcessEnv, configured: boolean): { url: string; secret: string } | undefined {
  const url = env[NOTIFY_URL_VARIABLE];
  if (url === undefined || url === '') {
    if (configured) throw new InputError('notify', `notifications are configured but ${NOTIFY_URL_VARIABLE} is not set: export the webhook URL (and ${NOTIFY_SECRET_VARIABLE}), or remove notify:`);
    return undefined;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InputError(NOTIFY_URL_VARIABLE, 'is not a URL: export the webhook\'s full address, e.g. https://hooks.example.com/tradeloop');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new InputError(NOTIFY_URL_VARIABLE, 'must be an http:// or https:// URL');
  const secret = env[NOTIFY_SECRET_VARIABLE];
  if (secret === undefined || secret.length < 16) throw new InputError(NOTIFY_SECRET_VARIABLE, `must be set to at least 16 characters when ${NOTIFY_URL_VARIABLE} is: every webhook is signed with it (HMAC-SHA256), so receivers can refuse forgeries`);
  return { url, secret };
}
