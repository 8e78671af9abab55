import { D, type Decision, type ExecReport } from '../core/index.js';
import type { RunSummary, RunView } from '../engine/run-view.js';
import { formatTable } from './table.js';

/** Renders the live terminal panel: prices, position, PnL, open orders, recent decisions. */
export function renderPanel(v: RunView, logFile?: string): string {
  const up = formatDuration(v.at - v.startedAt);
  const lines: string[] = [];
  lines.push(`tradeloop — ${v.environment} via ${v.venue} — up ${up}${v.halted ? `  HALTED: ${v.halted}` : ''}`);
  if (v.venueUnreachableSince !== undefined) {
    lines.push(`VENUE UNREACHABLE since ${clock(v.venueUnreachableSince)} (${formatDuration(v.at - v.venueUnreachableSince)}): requests fail fast, one probe a second; market data goes stale`);
  }
  lines.push('');
  lines.push(formatTable(['market', 'mid', 'data'], v.markets.map((m) => [m.market, m.mid === undefined ? '-' : m.mid.toFixed(2), m.stale ? 'STALE' : 'fresh'])));
  lines.push('');
  lines.push(formatTable(['asset', 'available', 'in orders'], v.balances.map((b) => [b.asset, b.available, b.trading])));
  lines.push(`equity ${v.equity ?? '-'}   start ${v.startEquity ?? '-'}   PnL ${v.pnl ?? '-'}`);
  lines.push('');
  lines.push('open orders');
  lines.push(formatTable(['ref_id', 'market', 'side', 'price', 'amount', 'status'], v.openOrders.map((o) => [o.refId, o.market, o.side, o.price ?? 'market', o.amount ?? '', o.status])));
  if (v.orphans?.length) {
    lines.push('');
    lines.push('orphans found at start (run.orphans)');
    lines.push(formatTable(['ref_id', 'order', 'market', 'side', 'price', 'action'], v.orphans.map((o) => [o.refId, o.orderId, o.market, o.side, o.price ?? 'market', o.action])));
  }
  lines.push('');
  lines.push('recent decisions');
  lines.push(formatTable(['time', 'strategy', 'intent', 'decision'], v.decisions.slice().reverse().map(decisionRow)));
  lines.push('');
  lines.push('recent reports');
  lines.push(formatTable(['time', 'ref_id', 'report'], v.reports.slice().reverse().map(reportRow)));
  lines.push('');
  const c = v.counters;
  lines.push(`intents ${c.intents ?? 0}  approved ${c.approved ?? 0}  denied ${c.denied ?? 0}  orders ${c.orders ?? 0}  fills ${c.fills ?? 0}`);
  for (const s of v.stoppedStrategies) lines.push(`STOPPED ${s}`);
  lines.push(`Ctrl-C to stop${logFile ? `; logs in ${logFile}` : ''}`);
  return lines.join('\n');
}

function decisionRow(d: Decision): string[] {
  const i = d.intent;
  const what =
    i.kind === 'place-order'
      ? `${i.side} ${i.type} ${i.market} ${i.baseAmount ?? `${i.quoteAmount} quote`}${i.price ? ` @ ${i.price}` : ''}`
      : i.kind === 'execute-quote'
        ? `quote ${i.side} ${i.market} ${i.baseAmount ?? `${i.quoteAmount} quote`}`
        : i.kind === 'cancel-order'
          ? `cancel ${i.orderRefId}`
          : `transfer ${i.amount} ${i.asset}`;
  return [clock(d.at), i.strategy, what, d.kind === 'approve' ? 'approved' : `denied ${d.reason.code}: ${d.reason.message}`];
}

function reportRow(r: ExecReport): string[] {
  const text =
    r.kind === 'filled'
      ? `filled ${r.side} ${r.amount} @ ${r.price}`
      : r.kind === 'quote-executed'
        ? `quote ${r.settled ? 'settled' : 'executed'} ${r.baseAmount} @ ${r.price}`
        : r.kind === 'rejected' || r.kind === 'failed'
          ? `${r.kind} ${r.code}: ${r.message}`
          : r.kind === 'denied'
            ? `denied ${r.reason.code}: ${r.reason.message}`
          : r.kind === 'unresolved'
            ? `unresolved: ${r.message}`
            : r.kind === 'transferred'
              ? `transferred (${r.status})`
              : r.kind;
  return [clock(r.at), r.refId, text];
}

function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h > 0 ? `${h}h` : ''}${m}m${String(s % 60).padStart(2, '0')}s`;
}

/** The summary printed when a run ends. */
export function renderSummary(s: RunSummary): string {
  const rows: string[][] = [
    ['duration', formatDuration(s.durationMs)],
    ['intents', String(s.intents)],
    ['approved', String(s.approved)],
    ['denied', `${s.denied}${Object.keys(s.denials).length ? ` (${Object.entries(s.denials).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}`],
    ['orders placed', String(s.ordersPlaced)],
    ['fills', String(s.fills)],
    ['fees', new D(s.fees).toDecimalPlaces(8, D.ROUND_UP).toFixed()],
    ['equity', `${s.startEquity ?? '-'} → ${s.endEquity ?? '-'}`],
    ['PnL', s.pnl ?? '-'],
    ['open orders left', String(s.openOrdersLeft)],
    ['unresolved', String(s.unresolved)],
  ];
  for (const x of s.leftOpen ?? []) rows.push(['left open', x]);
  if (s.orphans && Object.keys(s.orphans).length) rows.push(['orphans at start', Object.entries(s.orphans).map(([k, v]) => `${k} ${v}`).join(', ')]);
  for (const x of s.stoppedStrategies) rows.push(['stopped strategy', x]);
  if (s.halted) rows.push(['halted', s.halted]);
  const width = Math.max(...rows.map((r) => r[0]!.length));
  return ['run summary', ...rows.map(([k, v]) => `  ${k!.padEnd(width)}  ${v}`)].join('\n');
}
