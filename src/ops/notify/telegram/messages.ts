import type { Notification } from '../notifier.js';

const str = (v: unknown): string =>
  v === undefined || v === null
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : JSON.stringify(v);

/** A notification as one chat message: the same events and facts the webhook's body carries. */
export function notificationText(n: Notification): string {
  const d = n.data;
  switch (n.event) {
    case 'fill':
      return `fill: ${str(d.side)} ${str(d.amount)} ${str(d.market)} @ ${str(d.price)}${d.quote === true ? ' (quote)' : ''}${d.strategy !== undefined ? ` for ${str(d.strategy)}` : ''} [${str(d.refId)}]`;
    case 'kill-switch':
      return `trading halted: ${str(d.reason)}${d.allowsReducing === true ? ' (reducing orders still pass)' : ''}`;
    case 'unresolved':
      return `order ${str(d.refId)} unresolved: ${str(d.message)}`;
    case 'strategy-stopped':
      return `strategy ${str(d.strategy)} stopped: ${str(d.reason)}`;
    case 'venue-unreachable':
      return d.state === 'unreachable'
        ? `venue unreachable since ${new Date(Number(d.since)).toISOString()}${d.lastError !== undefined ? ` (${str(d.lastError)})` : ''}`
        : 'venue reachable again';
    case 'journal-failed':
      return `journal failed, trading halted and the run stopping: ${str(d.reason)}`;
    case 'run-start':
      return `run started in ${str(d.environment)}: ${Array.isArray(d.strategies) ? d.strategies.map(str).join(', ') : ''}`;
    case 'run-stop':
      return `run stopped: ${str(d.reason)}`;
    default:
      return `${str(n.event)}: ${JSON.stringify(d)}`;
  }
}
