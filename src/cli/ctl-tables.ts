/**
 * `tradeloop ctl`'s answers for people: the control API's JSON as aligned tables (status, strategies,
 * positions, orders) and one readable paragraph per action. Amounts are the API's `…Shown` figures
 * (each asset's precision, prices at the market's tick), so nothing here does decimal arithmetic.
 */
import { formatTable } from './table.js';

type Obj = Readonly<Record<string, unknown>>;

const str = (v: unknown): string =>
  v === undefined || v === null
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : JSON.stringify(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const time = (v: unknown): string =>
  typeof v === 'number'
    ? new Date(v)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z')
    : '';
const age = (ms: unknown): string =>
  typeof ms !== 'number'
    ? ''
    : ms < 60_000
      ? `${Math.round(ms / 1000)}s`
      : ms < 3_600_000
        ? `${Math.round(ms / 60_000)}m`
        : `${(ms / 3_600_000).toFixed(1)}h`;

/** How trading stands, in one line: `running`, or the state with every cause's reason. */
export function tradingLine(trading: unknown): string {
  const t = obj(trading);
  const causes = list(t.causes);
  if (t.state === 'running' || causes.length === 0) return str(t.state ?? 'running');
  return `${str(t.state)}: ${causes.map((c) => `${str(c.kind)} (${str(c.reason)})`).join('; ')}${t.allowsReducing === true ? ' (reducing orders still pass)' : ''}`;
}

function statusText(s: Obj): string {
  const asset = str(s.equityAsset ?? 'USD');
  const rows: [string, string][] = [
    ['environment', `${str(s.environment)} (venue ${str(s.venue)})`],
    ['trading', tradingLine(s.trading)],
    ['equity', `${str(s.equityShown ?? s.equity ?? '?')} ${asset}`],
    ['start equity', `${str(s.startEquityShown ?? s.startEquity ?? '?')} ${asset}`],
    ['P&L', `${str(s.pnlShown ?? s.pnl ?? '?')} ${asset}`],
    ['started', time(s.startedAt)],
    [
      'counters',
      Object.entries(obj(s.counters))
        .map(([k, v]) => `${k} ${str(v)}`)
        .join(', ') || '(none)',
    ],
  ];
  const stopped = list(s.stoppedStrategies);
  if (stopped.length > 0) rows.push(['stopped', stopped.map(str).join(', ')]);
  if (s.journalFailure !== undefined) rows.push(['journal', `FAILED: ${str(s.journalFailure)}`]);
  if (s.venueUnreachableSince !== undefined) rows.push(['venue', `unreachable since ${time(s.venueUnreachableSince)}`]);
  const orphans = list(s.orphans);
  if (orphans.length > 0) rows.push(['orphans', orphans.map((o) => `${str(o.refId)} ${str(o.action)}`).join(', ')]);
  const width = Math.max(...rows.map(([k]) => k.length));
  const markets = list(s.markets).map((m) => [str(m.market), m.mid === undefined ? '' : str(m.mid), m.stale === true ? 'stale' : '']);
  return `${rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}\n\n${formatTable(['market', 'mid', ''], markets)}`;
}

function strategiesText(rows: Obj[]): string {
  return formatTable(
    ['strategy', 'state', 'markets', 'P&L', 'positions', 'intents', 'approved', 'denied'],
    rows.map((s) => {
      const d = obj(s.recentDecisions);
      const held = list(s.positions)
        .filter((p) => p.position !== '0')
        .map((p) => `${str(p.positionShown ?? p.position)} ${str(p.market)}`);
      return [
        str(s.name),
        s.stopped !== undefined ? `stopped (${str(s.stopped)})` : str(s.state),
        list(s.markets).map(str).join('+'),
        str(s.pnlShown ?? s.pnl),
        held.join(', ') || '-',
        str(d.intents),
        str(d.approved),
        str(d.denied),
      ];
    }),
  );
}

function positionsText(p: Obj): string {
  const positions = formatTable(
    ['strategy', 'market', 'position', 'avg cost', 'mid', 'unrealized', 'realized', 'P&L'],
    list(p.positions).map((x) => [
      str(x.strategy),
      str(x.market),
      str(x.positionShown ?? x.position),
      str(x.averageCostShown ?? x.averageCost ?? '-'),
      str(x.midShown ?? x.mid ?? '-'),
      str(x.unrealizedPnl),
      str(x.realizedPnl),
      `${str(x.pnlShown ?? x.pnl)} ${str(x.quoteAsset)}`,
    ]),
  );
  const balances = formatTable(
    ['asset', 'available', 'total'],
    list(p.balances).map((b) => [str(b.asset), str(b.availableShown ?? b.available), str(b.totalShown ?? b.total)]),
  );
  return `positions\n${positions}\n\nbalances\n${balances}`;
}

function ordersText(o: Obj): string {
  const open = formatTable(
    ['ref_id', 'strategy', 'market', 'side', 'type', 'price', 'amount', 'filled', 'status', 'age'],
    list(o.open).map((x) => [
      str(x.refId),
      str(x.strategy),
      str(x.market),
      str(x.side),
      str(x.type),
      str(x.priceShown ?? x.price ?? '-'),
      str(x.amountShown ?? x.amount),
      str(x.amountFilled ?? '0'),
      str(x.status),
      age(x.ageMs),
    ]),
  );
  const fills = formatTable(
    ['at', 'strategy', 'market', 'side', 'price', 'amount', 'ref_id'],
    list(o.fills).map((f) => [
      time(f.at),
      str(f.strategy ?? '-'),
      str(f.market),
      str(f.side),
      str(f.priceShown ?? f.price),
      str(f.amountShown ?? f.amount),
      str(f.refId),
    ]),
  );
  return `open orders\n${open}\n\nrecent fills\n${fills}`;
}

/** A read's answer as tables. */
export function readText(action: 'status' | 'strategies' | 'positions' | 'orders', answer: unknown): string {
  switch (action) {
    case 'status':
      return statusText(obj(answer));
    case 'strategies':
      return strategiesText(list(answer));
    case 'positions':
      return positionsText(obj(answer));
    case 'orders':
      return ordersText(obj(answer));
  }
}

/** An action's answer in a few lines: what was done, how trading stands, and the bot's message. */
export function actionText(action: string, answer: unknown): string {
  const a = obj(answer);
  const lines = [`${action}: done`];
  if (a.strategy !== undefined) lines[0] += ` for ${str(a.strategy)}`;
  for (const e of list(a.exits))
    lines.push(
      `  ${str(e.market)}: sell ${str(e.amount)}${e.outcome !== undefined ? ` (${str(e.outcome)}${e.message !== undefined ? `: ${str(e.message)}` : ''})` : ''}${e.note !== undefined ? ` ${str(e.note)}` : ''}`,
    );
  if (Array.isArray(a.cancelled)) lines.push(`  cancelled ${a.cancelled.length}, still open ${list(a.stillOpen).length}`);
  if (a.stopping === true) lines.push('  the bot is stopping (as on Ctrl-C)');
  if (a.trading !== undefined) lines.push(`  trading: ${tradingLine(a.trading)}`);
  for (const [k, v] of Object.entries(a))
    if (!['strategy', 'exits', 'cancelled', 'stillOpen', 'stopping', 'trading', 'was', 'lifted', 'message'].includes(k))
      lines.push(`  ${k}: ${str(v)}`);
  if (a.message !== undefined) lines.push(`  ${str(a.message)}`);
  return lines.join('\n');
}
