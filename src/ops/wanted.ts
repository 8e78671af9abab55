/**
 * Whether a run needs the ops module (the dashboard and control API, /metrics, webhook notifications),
 * decided without loading it: a run with none of them starts without its server, metrics and views.
 * The environment variables' names live here so the command names them without loading the module.
 */
import type { Config } from '../config/index.js';

/** Where the dashboard's token comes from: the environment, else one the run makes (and prints once). */
export const UI_TOKEN_VARIABLE = 'TRADELOOP_UI_TOKEN';
export const NOTIFY_URL_VARIABLE = 'TRADELOOP_NOTIFY_URL';
/** The chat bot's token and allowed chats (src/ops/notify/telegram takes them from here). */
export const TELEGRAM_TOKEN_VARIABLE = 'TRADELOOP_TELEGRAM_TOKEN';
export const TELEGRAM_CHATS_VARIABLE = 'TRADELOOP_TELEGRAM_CHAT_IDS';

/**
 * True when `Ops.prepare` may answer anything but undefined: the dashboard is asked for (`--ui` or
 * ui.enabled), notifications are configured (prepare then checks the webhook's variables), the
 * webhook's URL is exported, or the chat bot's token or chats are (prepare then checks both).
 */
export function opsWanted(config: Pick<Config, 'ui' | 'notify'>, env: NodeJS.ProcessEnv, ui: boolean | undefined): boolean {
  return (
    ui === true ||
    (config.ui !== undefined && config.ui.enabled) ||
    config.notify !== undefined ||
    [NOTIFY_URL_VARIABLE, TELEGRAM_TOKEN_VARIABLE, TELEGRAM_CHATS_VARIABLE].some((v) => (env[v] ?? '') !== '')
  );
}
