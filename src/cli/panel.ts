import {
  fallbackPriceDecimals,
  formatAmount,
  formatMoney,
  formatPrice,
  splitMarket,
  type Decision,
  type ExecReport,
} from '../core/index.js';
import type { HeldPosition, RunSummary, RunView } from '../live/run-view.js';
import type { StrategyPosition } from '../exec/journal-trades.js';
import { formatTable } from './table.js';

/**
 * Renders the live terminal panel: prices, position, PnL, open orders, recent decisions. Money shows
 * at its asset's precision and prices at the market's tick (the view holds full precision).
 */
export function renderPanel(v: RunView, logFile?: string): string {
  const decimals = priceDecimalsOf(v);
  const asset = v.equityAsset ?? 'USD';
  const up = formatDuration(v.at - v.startedAt);
  const lines: string[] = [];
  lines.push(`tradeloop — ${v.environment} via ${v.venue} — up ${up}${v.halted ? `  HALTED: ${v.halted}` : ''}`);
  if (v.journalFailure !== undefined) lines.push(`JOURNAL FAILED: ${v.journalFailure}; trading halted, the run is stopping (exit code 5)`);
  if (v.venueUnreachableSince !== undefined) {
    lines.push(
      `VENUE UNREACHABLE since ${clock(v.venueUnreachableSince)} (${formatDuration(v.at - v.venueUnreachableSince)}): requests fail fast, one probe a second; market data goes stale`,
    );
  }
  if (v.budgetStoreUnreachable !== undefined) {
    const b = v.budgetStoreUnreachable;
    lines.push(
      `BUDGET STORE UNREACHABLE since ${clock(b.since)} (${formatDuration(v.at - b.since)}): ${b.store} does not answer; this bot uses its share, 1/${b.bots} of the request budget`,
    );
  }
  lines.push('');
  lines.push(
    formatTable(
      ['market', 'mid', 'data'],
      v.markets.map((m) => [m.market, formatPrice(m.mid, decimals(m.market)), m.stale ? 'STALE' : 'fresh']),
    ),
  );
  lines.push('');
  lines.push(
    formatTable(
      ['asset', 'available', 'in orders'],
      v.balances.map((b) => [b.asset, formatAmount(b.available, b.asset), formatAmount(b.trading, b.asset)]),
    ),
  );
  lines.push(`equity ${formatMoney(v.equity, asset)}   start ${formatMoney(v.startEquity, asset)}   PnL ${formatMoney(v.pnl, asset)}`);
  lines.push('');
  lines.push('open orders');
  lines.push(
    formatTable(
      ['ref_id', 'market', 'side', 'price', 'amount', 'status'],
      v.openOrders.map((o) => [
        o.refId,
        o.market,
        o.side,
        o.price === undefined ? 'market' : formatPrice(o.price, decimals(o.market)),
        o.amount ?? '',
        o.status,
      ]),
    ),
  );
  if (v.orphans?.length) {
    lines.push('');
    lines.push('orphans found at start (run.orphans)');
    lines.push(
      formatTable(
        ['ref_id', 'order', 'market', 'side', 'price', 'action'],
        v.orphans.map((o) => [o.refId, o.orderId, o.market, o.side, o.price ?? 'market', o.action]),
      ),
    );
  }
  lines.push('');
  lines.push('recent decisions');
  lines.push(formatTable(['time', 'strategy', 'intent', 'decision'], v.decisions.slice().reverse().map(decisionRow)));
  lines.push('');
  lines.push('recent reports');
  lines.push(
    formatTable(
      ['time', 'ref_id', 'report'],
      v.reports
        .slice()
        .reverse()
        .map((r) => reportRow(r, decimals)),
    ),
  );
  lines.push('');
  const c = v.counters;
  lines.push(
    `intents ${c.intents ?? 0}  approved ${c.approved ?? 0}  denied ${c.denied ?? 0}  orders ${c.orders ?? 0}  fills ${c.fills ?? 0}`,
  );
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

/** Decimals of each market's prices: the tick's when the view has it, else the quote asset's. */
function priceDecimalsOf(v: RunView): (market: string) => number {
  const known = new Map(v.markets.flatMap((m) => (m.priceDecimals === undefined ? [] : [[m.market as string, m.priceDecimals] as const])));
  return (market) => known.get(market) ?? fallbackPriceDecimals(quoteOf(market));
}

function quoteOf(market: string): string {
  try {
    return splitMarket(market).quote;
  } catch {
    return 'USD';
  }
}

function baseOf(market: string): string {
  try {
    return splitMarket(market).base;
  } catch {
    return 'BTC';
  }
}

function reportRow(r: ExecReport, decimals: (market: string) => number): string[] {
  const text =
    r.kind === 'filled'
      ? `filled ${r.side} ${formatAmount(r.amount, baseOf(r.market))} @ ${formatPrice(r.price, decimals(r.market))}`
      : r.kind === 'quote-executed'
        ? `quote ${r.settled ? 'settled' : 'executed'} ${formatAmount(r.baseAmount, baseOf(r.market))} @ ${formatPrice(r.price, decimals(r.market))}`
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

/**
 * The summary printed when a run ends: money at its asset's precision, and every position still
 * held (`--json` prints the summary itself, at full precision).
 */
export function renderSummary(s: RunSummary): string {
  const asset = s.equityAsset ?? 'USD';
  const rows: string[][] = [
    ['duration', formatDuration(s.durationMs)],
    ['intents', String(s.intents)],
    ['approved', String(s.approved)],
    [
      'denied',
      `${s.denied}${
        Object.keys(s.denials).length
          ? ` (${Object.entries(s.denials)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')})`
          : ''
      }`,
    ],
    ['orders placed', String(s.ordersPlaced)],
    ['fills', String(s.fills)],
    ['fees', formatMoney(s.fees, asset)],
    [
      'equity',
      `${formatAmount(s.startEquity, asset)} → ${formatMoney(s.endEquity, asset)}${s.startEquityAt === undefined ? '' : ` (start measured ${new Date(s.startEquityAt).toISOString().slice(0, 19).replace('T', ' ')} UTC)`}`,
    ],
    ['PnL', formatMoney(s.pnl, asset)],
    ['open orders left', String(s.openOrdersLeft)],
    ...(s.settlingQuoteExecutions
      ? [['quote executions not settled', `${s.settlingQuoteExecutions} (followed to settlement at the next start)`]]
      : []),
    ['unresolved', String(s.unresolved)],
  ];
  for (const x of s.leftOpen ?? []) rows.push(['left open', x]);
  for (const x of s.leftSettling ?? []) rows.push(['not settled', x]);
  if (s.positions !== undefined) {
    if (s.positions.length === 0) rows.push(['positions held', `none (all in ${asset})`]);
    for (const p of s.positions) rows.push(['position held', positionText(p, asset)]);
  }
  for (const p of s.strategyPositions ?? []) rows.push(['strategy position', strategyPositionText(p)]);
  for (const [a, amount] of Object.entries(s.unassigned ?? {})) rows.push(['held by no strategy', formatMoney(amount, a)]);
  if (s.orphans && Object.keys(s.orphans).length)
    rows.push([
      'orphans at start',
      Object.entries(s.orphans)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    ]);
  for (const x of s.stoppedStrategies) rows.push(['stopped strategy', x]);
  if (s.halted) rows.push(['halted', s.halted]);
  if (s.journalFailure)
    rows.push([
      'journal',
      `FAILED (${s.journalFailure.kind}): trading halted at ${new Date(s.journalFailure.at).toISOString().slice(0, 19).replace('T', ' ')} UTC`,
    ]);
  const width = Math.max(...rows.map((r) => r[0]!.length));
  return ['run summary', ...rows.map(([k, v]) => `  ${k!.padEnd(width)}  ${v}`)].join('\n');
}

/** "grid-b BTCUSD: 0.03000000 BTC, realized P&L -3.60 USD, fees 3.60 USD": one strategy's own position. */
function strategyPositionText(p: StrategyPosition): string {
  const { base, quote } = splitMarket(p.market);
  return `${p.strategy} ${p.market}: ${formatMoney(p.position, base)}, realized P&L ${formatMoney(p.realizedPnl, quote)}, fees ${formatMoney(p.fees, quote)}`;
}

/** "0.25000000 BTC at 62000.00 = 15500.00 USD", or the amount alone when no price was known. */
function positionText(p: HeldPosition, asset: string): string {
  const held = formatMoney(p.amount, p.asset);
  if (p.mid === undefined || p.value === undefined) return `${held} (no price to value it)`;
  return `${held} at ${formatPrice(p.mid, p.priceDecimals ?? fallbackPriceDecimals(asset))} = ${formatMoney(p.value, asset)}`;
}
