/**
 * The few Telegram Bot API calls the chat bot makes (getUpdates, sendMessage), and its settings from
 * the environment. The token is part of every request's path (`/bot<token>/<method>`): it is never put
 * into a log line or an error, and any text that could carry the URL is redacted before it is.
 */
import { InputError } from '../../../core/index.js';
import { TELEGRAM_CHATS_VARIABLE, TELEGRAM_TOKEN_VARIABLE } from '../../wanted.js';

export { TELEGRAM_CHATS_VARIABLE, TELEGRAM_TOKEN_VARIABLE };

/** The Bot API's base URL (tests point it at a fake on 127.0.0.1). */
export const TELEGRAM_API_VARIABLE = 'TRADELOOP_TELEGRAM_API';
export const DEFAULT_TELEGRAM_API = 'https://api.telegram.org';

export interface TelegramSettings {
  readonly token: string;
  /** The chats the bot answers and notifies (Telegram's numeric chat ids, as strings). */
  readonly chatIds: readonly string[];
  readonly apiBase: string;
}

/** The bot's settings, or undefined when the token is not set; bad values are refused naming the variable. */
export function telegramFrom(env: NodeJS.ProcessEnv): TelegramSettings | undefined {
  const token = env[TELEGRAM_TOKEN_VARIABLE];
  const chats = env[TELEGRAM_CHATS_VARIABLE];
  if (token === undefined || token === '') {
    if (chats !== undefined && chats !== '')
      throw new InputError(
        TELEGRAM_CHATS_VARIABLE,
        `is set but ${TELEGRAM_TOKEN_VARIABLE} is not: export the bot's token (from @BotFather) too, or unset ${TELEGRAM_CHATS_VARIABLE}`,
      );
    return undefined;
  }
  if (!/^\d+:[\w-]{20,}$/.test(token))
    throw new InputError(
      TELEGRAM_TOKEN_VARIABLE,
      'is not a Bot API token (digits, a colon, then 20+ letters, digits, _ or -, as @BotFather gives it)',
    );
  const chatIds = (chats ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  if (chatIds.length === 0)
    throw new InputError(
      TELEGRAM_CHATS_VARIABLE,
      `must list the chat ids the bot may answer (comma-separated, e.g. 123456789,-1001234567890) when ${TELEGRAM_TOKEN_VARIABLE} is set: a bot that answers anyone would let anyone halt trading`,
    );
  const bad = chatIds.find((c) => !/^-?\d{1,20}$/.test(c));
  if (bad !== undefined)
    throw new InputError(
      TELEGRAM_CHATS_VARIABLE,
      `${JSON.stringify(bad)} is not a chat id: Telegram's chat ids are integers (negative for groups), comma-separated`,
    );
  const apiBase = env[TELEGRAM_API_VARIABLE] || DEFAULT_TELEGRAM_API;
  try {
    const u = new URL(apiBase);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
  } catch {
    throw new InputError(TELEGRAM_API_VARIABLE, `must be an http:// or https:// URL (default ${DEFAULT_TELEGRAM_API})`);
  }
  return { token, chatIds, apiBase: apiBase.replace(/\/+$/, '') };
}

/** A Bot API failure, its message already free of the token. */
export class BotApiError extends Error {
  constructor(
    message: string,
    /** The HTTP status, when the API answered. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'BotApiError';
  }
}

/** What the Bot API answers: `{ ok, result }`, or `{ ok: false, description }`. */
interface BotAnswer {
  readonly ok?: boolean;
  readonly result?: unknown;
  readonly description?: string;
}

export class BotApi {
  constructor(private readonly s: Pick<TelegramSettings, 'token' | 'apiBase'>) {}

  /** `text` with the token (and so any request URL) masked. */
  redact(text: string): string {
    return text.split(this.s.token).join('<token>');
  }

  /** One call: the answer's `result`, or a BotApiError (HTTP status, the API's description, or the error's code). */
  async call(method: string, body: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.s.apiBase}/bot${this.s.token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
        redirect: 'error',
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new BotApiError(
        this.redact(`${method}: ${signal.aborted ? 'aborted' : (cause?.code ?? cause?.message ?? (e as Error).message)}`),
      );
    }
    let answer: BotAnswer = {};
    try {
      answer = (await res.json()) as BotAnswer;
    } catch {
      // not JSON: said by the status below
    }
    if (!res.ok || answer.ok !== true)
      throw new BotApiError(
        this.redact(`${method}: HTTP ${res.status}${answer.description ? ` (${answer.description})` : ''}`),
        res.status,
      );
    return answer.result;
  }
}
