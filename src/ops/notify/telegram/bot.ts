/**
 * Chat control over Telegram: the bot long-polls getUpdates (with an offset, so each message is read
 * once) and answers the allowed chats' commands through the control API's own reads and actions; it
 * sends the run's notifications through a Notifier, the same bounded queue the webhooks use, so a Bot
 * API that never answers only fills that queue (oldest dropped past its cap) and never holds up a fill's
 * handling. A chat not allowed gets nothing; it is logged once per chat id. The token never reaches a
 * log line or an error (BotApi redacts it).
 */
import { Notifier, type Notification, type NotifyEvent, type NotifyQueueOptions } from '../notifier.js';
import type { NotifySink } from '../run-notifications.js';
import { BotApi, BotApiError, TELEGRAM_CHATS_VARIABLE, TELEGRAM_TOKEN_VARIABLE, type TelegramSettings } from './bot-api.js';
import { answer, type CommandContext } from './commands.js';
import { notificationText } from './messages.js';

/** The queue's settings are `notify:`'s (events, cap, timeout, attempts); its clock also times the retries of getUpdates. */
export interface TelegramBotOptions extends NotifyQueueOptions {
  readonly settings: TelegramSettings;
  readonly commands: CommandContext;
  /** getUpdates' long-poll wait in seconds (default 25). */
  readonly pollSeconds?: number;
}

/** Telegram's limit on a message's length. */
const MAX_MESSAGE = 4_096;
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 60_000;
/** Chats whose refusal was logged, at most this many (a flood of chats must not grow memory). */
const MAX_REFUSED_LOGGED = 1_000;

export class TelegramBot implements NotifySink {
  readonly notifier: Notifier;
  private readonly api: BotApi;
  private readonly allowed: ReadonlySet<string>;
  private readonly refusedLogged = new Set<string>();
  /** Per notification id: the chats it reached (a retry goes to the others only). */
  private readonly reached = new Map<string, Set<string>>();
  private readonly closing = new AbortController();
  private offset = 0;
  private polling: Promise<void> | undefined;

  constructor(private readonly o: TelegramBotOptions) {
    this.api = new BotApi(o.settings);
    this.allowed = new Set(o.settings.chatIds);
    this.notifier = new Notifier({ ...o, label: 'telegram', deliver: (n, attempt, signal) => this.deliver(n, attempt, signal) });
  }

  /** Queues a notification for every allowed chat. Never waits. */
  notify(event: NotifyEvent, data: Record<string, unknown>): void {
    this.notifier.notify(event, data);
  }

  /** Starts reading the chats' commands. */
  start(): void {
    this.polling ??= this.poll();
  }

  /** Stops polling and delivering (what is still queued is dropped, counted). */
  async close(): Promise<void> {
    this.closing.abort();
    this.notifier.close();
    await this.polling;
  }

  private async deliver(n: Notification, attempt: number, signal: AbortSignal): Promise<number> {
    const reached = this.reached.get(n.id) ?? new Set<string>();
    this.reached.set(n.id, reached);
    let failed: BotApiError | undefined;
    for (const chat of this.allowed) {
      if (reached.has(chat)) continue;
      try {
        await this.api.call('sendMessage', { chat_id: chat, text: notificationText(n).slice(0, MAX_MESSAGE) }, signal);
        reached.add(chat);
      } catch (e) {
        if (signal.aborted) throw e;
        failed = e instanceof BotApiError ? e : new BotApiError(this.api.redact(String(e)));
      }
    }
    if (failed === undefined || attempt >= this.o.maxAttempts) this.reached.delete(n.id);
    if (failed === undefined) return 200;
    if (failed.status !== undefined) return failed.status;
    throw failed;
  }

  private async poll(): Promise<void> {
    const wait = this.o.pollSeconds ?? 25;
    let failures = 0;
    while (!this.closing.signal.aborted) {
      let updates: unknown;
      try {
        updates = await this.api.call(
          'getUpdates',
          { offset: this.offset, timeout: wait, allowed_updates: ['message'] },
          AbortSignal.any([this.closing.signal, AbortSignal.timeout(wait * 1_000 + this.o.timeoutMs)]),
        );
        failures = 0;
      } catch (e) {
        if (this.closing.signal.aborted) return;
        failures++;
        const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (failures - 1));
        const refused = e instanceof BotApiError && (e.status === 401 || e.status === 404);
        this.o.log?.warn(
          `telegram: reading the chats failed (${(e as Error).message})${refused ? `: the Bot API refused the token, check ${TELEGRAM_TOKEN_VARIABLE}` : ''}; trying again in ${delay} ms`,
        );
        await this.o.clock.sleep(delay, this.closing.signal).catch(() => undefined);
        continue;
      }
      for (const u of Array.isArray(updates) ? (updates as Update[]) : []) {
        if (typeof u.update_id === 'number') this.offset = Math.max(this.offset, u.update_id + 1);
        await this.onUpdate(u);
      }
    }
  }

  private async onUpdate(u: Update): Promise<void> {
    const chatId = u.message?.chat?.id;
    if (chatId === undefined) return;
    const chat = String(chatId);
    if (!this.allowed.has(chat)) {
      if (this.refusedLogged.size < MAX_REFUSED_LOGGED && !this.refusedLogged.has(chat)) {
        this.refusedLogged.add(chat);
        this.o.log?.warn(
          `telegram: a message from chat ${chat}, which is not in ${TELEGRAM_CHATS_VARIABLE}, was ignored (logged once per chat)`,
        );
      }
      return;
    }
    const text = u.message?.text;
    if (typeof text !== 'string' || !text.startsWith('/')) return;
    this.o.log?.info(`telegram: ${text.split(/\s/)[0] ?? ''} from chat ${chat}`);
    let reply: string;
    try {
      reply = await answer(text, this.o.commands);
    } catch (e) {
      this.o.log?.error({ err: e }, `telegram: ${text.split(/\s/)[0] ?? ''} failed`);
      reply = "failed: see the run's log";
    }
    try {
      await this.api.call(
        'sendMessage',
        { chat_id: chat, text: reply.slice(0, MAX_MESSAGE) },
        AbortSignal.any([this.closing.signal, AbortSignal.timeout(this.o.timeoutMs)]),
      );
    } catch (e) {
      if (!this.closing.signal.aborted) this.o.log?.warn(`telegram: the answer to chat ${chat} was not sent (${(e as Error).message})`);
    }
  }
}

/** The part of a Bot API Update the bot reads. */
interface Update {
  readonly update_id?: number;
  readonly message?: { readonly chat?: { readonly id?: number | string }; readonly text?: string };
}
