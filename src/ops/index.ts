export { Ops, STOP_NOTIFY_WAIT_MS, type OpsSettings, type OpsStarted } from './ops.js';
export type { OpsRun, BudgetView } from './run-port.js';
export { UI_TOKEN_VARIABLE, uiTokenFrom, hasToken, refusedOrigin, allowedHosts } from './auth.js';
export { RunMetrics, type NotifyStats } from './metrics.js';
export { OpsState } from './ops-state.js';
export { startOpsServer, type OpsServer, type OpsServerOptions } from './server.js';
export {
  Notifier,
  signatureOf,
  NOTIFY_URL_VARIABLE,
  NOTIFY_SECRET_VARIABLE,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type NotifyEvent,
  type WebhookTransport,
} from './notify/notifier.js';
export { RunNotifications, WATCH_MS, type NotifySink } from './notify/run-notifications.js';
export { instrumentJournal } from './journal-timing.js';
export { Control, ACTIONS, type ActionName, type ActionResult } from './control.js';
export { LogTail, logLevelOf, LOG_LEVELS, type LogLevel, type LogRecord } from './log-tail.js';
export { dailyPnl, type DailyPnl } from './daily-pnl.js';
export { redactConfig } from './config-view.js';
