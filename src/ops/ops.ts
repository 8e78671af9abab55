/**
 * Operating a running bot, assembled in one place for `tradeloop run`: the operations server
 * (dashboard, control API, /metrics) when `--ui` or `ui:` asks for it (its address written beside the
 * journal for `tradeloop ctl`), webhook notifications when TRADELOOP_NOTIFY_URL is set, and the Telegram
 * chat bot when TRADELOOP_TELEGRAM_TOKEN is. `prepareOps` checks the settings and secrets before anything starts
 * (bad input costs nothing); `start` attaches to the run once it trades; `stop` sends the run-stop
 * notification (briefly waiting for delivery) and closes everything.
 */
import type { ResponseEvent } from '../api/index.js';
import { LiveClock } from '../clock/index.js';
import { InputError } from '../core/index.js';
import type { Config } from '../config/index.js';
import type { JournalStore } from '../exec/index.js';
import { removeDashboardFile, writeDashboardFile } from '../live/dashboard-file.js';
import type { Logger, SecretSet } from '../log/index.js';
import { uiTokenFrom, UI_TOKEN_VARIABLE, isLoopback, type UiToken } from './auth.js';
import { redactConfig } from './config-view.js';
import { instrumentJournal } from './journal-timing.js';
import type { LogTail } from './log-tail.js';
import { RunMetrics } from './metrics.js';
import { Control } from './control.js';
import { NOTIFY_SECRET_VARIABLE, NOTIFY_URL_VARIABLE, Notifier, type NotifyEvent } from './notify/notifier.js';
import { RunNotifications } from './notify/run-notifications.js';
import { TELEGRAM_CHATS_VARIABLE, telegramFrom, type TelegramSettings } from './notify/telegram/bot-api.js';
import { TelegramBot } from './notify/telegram/bot.js';
import { OpsState } from './ops-state.js';
import type { OpsRun } from './run-port.js';
import { READS, startOpsServer, type OpsServer } from './server.js';

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
  /** The run's header line for chat control, when it is on (never the token). */
  readonly chat?: string;
}

const ALL_EVENTS: readonly NotifyEvent[] = [
  'fill',
  'kill-switch',
  'unresolved',
  'strategy-stopped',
  'venue-unreachable',
  'journal-failed',
  'run-start',
  'run-stop',
];

export class Ops {
  readonly metrics = new RunMetrics();
  private server: OpsServer | undefined;
  private state: OpsState | undefined;
  private notifier: Notifier | undefined;
  private bot: TelegramBot | undefined;
  private notifications: RunNotifications | undefined;
  private startInfo: Record<string, unknown> | undefined;
  private run: OpsRun | undefined;
  /** The journal whose dashboard file this run wrote (removed at stop). */
  private dashboardJournal: string | undefined;

  private constructor(
    private readonly s: OpsSettings,
    private readonly token: UiToken | undefined,
    private readonly webhook: { readonly url: string; readonly secret: string } | undefined,
    private readonly telegram: TelegramSettings | undefined,
  ) {}

  /** Ops for this run's settings, or undefined when neither the server nor notifications are asked for. */
  static prepare(s: OpsSettings): Ops | undefined {
    const serve = s.ui === true || (s.config.ui !== undefined && s.config.ui.enabled);
    const telegram = telegramFrom(s.env);
    const webhook = webhookFrom(s.env, s.config.notify !== undefined, telegram !== undefined);
    if (!serve && !webhook && !telegram) return undefined;
    s.secrets?.add(telegram?.token);
    let token: UiToken | undefined;
    if (serve) {
      token = uiTokenFrom(s.env);
      s.secrets?.add(token.value);
    }
    if (webhook) {
      s.secrets?.add(webhook.url);
      s.secrets?.add(webhook.secret);
    }
    return new Ops(s, token, webhook, telegram);
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
  async start(
    run: OpsRun,
    info: { readonly refPrefix: string; readonly environment: string; readonly journalPath?: string },
  ): Promise<OpsStarted> {
    this.run = run;
    // the config as shown: the whole run's config when the run passes it, secrets hidden
    const state = (this.state = new OpsState(run, {
      ...(this.s.logTail && { logTail: this.s.logTail }),
      config: redactConfig(this.s.config, this.s.secrets),
    }));
    const cfg = this.s.config;
    const n = cfg.notify;
    // the chat bot and the webhook each keep their own bounded queue, with the same settings
    const queue = {
      // wall time: deliveries talk to a real receiver, whatever the run's (possibly accelerated) clock
      clock: new LiveClock(),
      events: n?.events ?? ALL_EVENTS,
      capacity: n?.queue_size ?? 1_000,
      timeoutMs: n?.timeout_ms ?? 5_000,
      maxAttempts: n?.max_attempts ?? 6,
    };
    if (this.webhook) {
      this.notifier = new Notifier({
        ...queue,
        url: this.webhook.url,
        secret: this.webhook.secret,
        source: info.refPrefix,
        log: this.s.log.child({ component: 'notify' }),
      });
    }
    let chat: string | undefined;
    if (this.telegram) {
      const log = this.s.log.child({ component: 'telegram' });
      const daily = READS['/api/daily'];
      this.bot = new TelegramBot({
        ...queue,
        settings: this.telegram,
        log,
        commands: { state, control: new Control(run, state, log), ...(daily && { daily: () => daily.read(state, new URLSearchParams()) }) },
      });
      this.bot.start();
      chat = `telegram: chat control and notifications on for ${this.telegram.chatIds.length} chat(s) (${TELEGRAM_CHATS_VARIABLE})`;
      this.s.log.info(chat);
    }
    if (this.notifier || this.bot) {
      const sinks = [this.notifier, this.bot].filter((x) => x !== undefined);
      this.notifications = new RunNotifications(run, { notify: (event, data) => sinks.forEach((x) => x.notify(event, data)) });
      this.startInfo = { environment: info.environment, strategies: run.strategies.map((x) => x.name) };
    }
    const [notifier, bot] = [this.notifier, this.bot];
    this.metrics.attach(run, state, {
      notify: { ...(notifier && { webhook: () => notifier.stats() }), ...(bot && { telegram: () => bot.notifier.stats() }) },
    });
    if (!this.token) return chat === undefined ? {} : { chat };
    const host = cfg.ui?.host ?? '127.0.0.1';
    if (!isLoopback(host))
      this.s.log.warn(
        `the dashboard listens on ${host}, beyond this machine: its token crosses the network in plain HTTP (put it behind TLS)`,
      );
    this.server = await startOpsServer({
      host,
      port: cfg.ui?.port ?? 8787,
      token: this.token.value,
      run,
      state,
      metrics: this.metrics,
      log: this.s.log.child({ component: 'ops' }),
    });
    this.s.log.info(
      `dashboard and control API on ${this.server.url} (token ${this.token.generated ? 'made for this run, printed once' : `from ${UI_TOKEN_VARIABLE}`})`,
    );
    if (info.journalPath !== undefined) this.writeDashboardFile(info.journalPath);
    return {
      url: this.server.url,
      ...(this.token.generated && { urlWithToken: `${this.server.url}#token=${this.token.value}` }),
      ...(chat !== undefined && { chat }),
    };
  }

  /** Where `tradeloop ctl` finds the dashboard: its URL beside the journal (never the token). A failed write costs the run nothing but that. */
  private writeDashboardFile(journal: string): void {
    if (!this.server) return;
    try {
      const file = writeDashboardFile({
        url: this.server.url,
        pid: process.pid,
        startedAt: new Date(new LiveClock().now()).toISOString(),
        journal,
      });
      this.dashboardJournal = journal;
      this.s.log.info(`the dashboard's address is in ${file} (tradeloop ctl reads it)`);
    } catch (e) {
      this.s.log.warn(
        `the dashboard's address could not be written beside the journal (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): tradeloop ctl needs --url`,
      );
    }
  }

  /** Sends run-start (once the run trades). */
  announceStart(): void {
    if (this.startInfo) this.notifications?.runStarted({ ...this.startInfo, at: this.run?.clock.now() });
  }

  /** Sends run-stop with the summary, waits a little for delivery, closes the server and the notifier. */
  async stop(summary: Record<string, unknown>): Promise<void> {
    this.notifications?.runStopped(summary);
    this.notifications?.close();
    await Promise.all([this.notifier?.flush(STOP_NOTIFY_WAIT_MS), this.bot?.notifier.flush(STOP_NOTIFY_WAIT_MS)]);
    this.notifier?.close();
    await this.bot?.close();
    await this.server?.close();
    if (this.dashboardJournal !== undefined) removeDashboardFile(this.dashboardJournal);
    this.state?.close();
    this.metrics.close();
  }
}

/** The webhook's URL and secret from the environment; a `notify:` section without them is an error naming them. */
function webhookFrom(env: NodeJS.ProcessEnv, configured: boolean, chat: boolean): { url: string; secret: string } | undefined {
  const url = env[NOTIFY_URL_VARIABLE];
  if (url === undefined || url === '') {
    if (configured && !chat)
      throw new InputError(
        'notify',
        `notifications are configured but ${NOTIFY_URL_VARIABLE} is not set: export the webhook URL (and ${NOTIFY_SECRET_VARIABLE}), or remove notify:`,
      );
    return undefined;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InputError(NOTIFY_URL_VARIABLE, "is not a URL: export the webhook's full address, e.g. https://hooks.example.com/tradeloop");
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new InputError(NOTIFY_URL_VARIABLE, 'must be an http:// or https:// URL');
  const secret = env[NOTIFY_SECRET_VARIABLE];
  if (secret === undefined || secret.length < 16)
    throw new InputError(
      NOTIFY_SECRET_VARIABLE,
      `must be set to at least 16 characters when ${NOTIFY_URL_VARIABLE} is: every webhook is signed with it (HMAC-SHA256), so receivers can refuse forgeries`,
    );
  return { url, secret };
}
