import { existsSync } from 'node:fs';
import { type Command } from 'commander';
import { D, fallbackPriceDecimals, formatAmount, formatPrice, splitMarket } from '../../core/index.js';
import { Journal, tradesFromFills, type JournalIntentRow, type JournalRoundTrip, type StrategyPosition } from '../../exec/index.js';
import { SIMULATED_MARKETS } from '../../sim/market/catalog.js';
import { platformInstrument } from '../../platform/instruments.js';
import { CliExit, type CliContext, writeLine } from '../context.js';
import { formatTable } from '../table.js';

interface ViewOptions {
  readonly config?: string;
  readonly journal?: string;
  readonly json?: boolean;
  readonly limit: string;
  readonly state?: string;
  readonly strategy?: string;
  readonly fills?: boolean;
}

const JOURNAL_HELP = 'journal file (default: journal.path of the config)';
const CONFIG_HELP = 'YAML config whose journal.path names the journal (default: ./config/default.yaml, else the built-in defaults)';

/**
 * `tradeloop orders`, `tradeloop trades` and `tradeloop positions`: the journal as tables for
 * people (money at its asset's precision, prices at the market's tick) or JSON (every digit). The
 * journal is `--journal FILE`, else `journal.path` of the config (`--config`, ./config/default.yaml
 * or the built-in defaults), so a bot with its own config needs no second flag.
 */
export function registerJournalViews(program: Command, ctx: CliContext): void {
  program
    .command('orders')
    .description('list journaled intents and orders (newest first) with their state at the venue')
    .option('-c, --config <file>', CONFIG_HELP)
    .option('--journal <file>', JOURNAL_HELP)
    .option('--state <state>', 'only this journal state: denied, pending, sent, open, done, unresolved')
    .option('--strategy <name>', 'only this strategy instance')
    .option('--limit <n>', 'at most this many rows', '50')
    .option('--json', 'one JSON array on stdout')
    .action((opts: ViewOptions) => withJournal(opts, ctx, (j) => showOrders(j, opts, ctx)));
  program
    .command('trades')
    .description('list round trips per strategy (entry, exit, P&L, fees; open ones last), or the fills with --fills')
    .option('-c, --config <file>', CONFIG_HELP)
    .option('--journal <file>', JOURNAL_HELP)
    .option('--strategy <name>', 'only this strategy instance')
    .option('--fills', 'list the fills themselves (oldest first) instead of round trips')
    .option('--limit <n>', 'at most this many rows (the newest)', '1000')
    .option('--json', 'one JSON array on stdout')
    .action((opts: ViewOptions) => withJournal(opts, ctx, (j) => (opts.fills ? showFills(j, opts, ctx) : showRoundTrips(j, opts, ctx))));
  program
    .command('positions')
    .description("position and P&L per strategy and market, from the journal's fills")
    .option('-c, --config <file>', CONFIG_HELP)
    .option('--journal <file>', JOURNAL_HELP)
    .option('--strategy <name>', 'only this strategy instance')
    .option('--json', 'one JSON array on stdout')
    .action((opts: Omit<ViewOptions, 'limit'>) => withJournal({ ...opts, limit: '1' }, ctx, (j) => showPositions(j, opts, ctx)));
}

async function withJournal(opts: ViewOptions, ctx: CliContext, fn: (j: Journal) => void): Promise<void> {
  const limit = Number(opts.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new CliExit(2, `error: --limit must be a positive integer, got ${JSON.stringify(opts.limit)}`);
  const states = ['denied', 'pending', 'sent', 'open', 'done', 'unresolved'];
  if (opts.state !== undefined && !states.includes(opts.state)) throw new CliExit(2, `error: --state must be one of ${states.join(', ')}`);
  const file = await journalFile(opts, ctx);
  // read only: a running bot may own the file
  let journal: Journal;
  try {
    journal = new Journal(file, { readonly: true });
  } catch (e) {
    throw new CliExit(2, `error: ${file} cannot be read as a tradeloop journal (${e instanceof Error ? e.message : String(e)})`);
  }
  try {
    fn(journal);
  } finally {
    journal.close();
  }
}

/** `--journal`, else the config's journal.path; a missing file says where the name came from. */
async function journalFile(opts: ViewOptions, ctx: CliContext): Promise<string> {
  if (opts.journal !== undefined) {
    if (!existsSync(opts.journal))
      throw new CliExit(2, `error: journal ${opts.journal} does not exist: run a strategy first, or pass --journal FILE`);
    return opts.journal;
  }
  // the config (its schema, the YAML parser) loads only when the journal is not named outright
  const { configLabel, loadConfig } = await import('../../config/locate.js');
  const { config, source } = loadConfig(opts.config);
  const file = config.journal.path;
  if (!existsSync(file)) {
    throw new CliExit(
      2,
      `error: journal ${file} (journal.path in ${configLabel(source)}) does not exist: run a strategy first, or pass --config FILE or --journal FILE`,
    );
  }
  writeLine(ctx.stderr, `journal: ${file} (journal.path in ${configLabel(source)})`);
  return file;
}

function showOrders(journal: Journal, opts: ViewOptions, ctx: CliContext): void {
  const all = journal.intents({
    ...(opts.strategy === undefined && { limit: Number(opts.limit) }),
    ...(opts.state && { state: opts.state as JournalIntentRow['state'] }),
  });
  const rows = opts.strategy === undefined ? all : all.filter((r) => r.strategy === opts.strategy).slice(0, Number(opts.limit));
  if (opts.json) {
    writeLine(ctx.stdout, JSON.stringify(rows));
    return;
  }
  const table = rows.map((r) => [
    new Date(r.createdAt).toISOString(),
    r.refId,
    r.strategy,
    r.kind,
    r.market ?? '',
    r.side ?? '',
    describe(r),
    r.state,
    r.status ?? r.denialCode ?? '',
    r.market ? amountOf(r.amountFilled, splitMarket(r.market).base) : r.amountFilled,
  ]);
  writeLine(
    ctx.stdout,
    formatTable(['created', 'ref_id', 'strategy', 'kind', 'market', 'side', 'size', 'state', 'status', 'filled'], table),
  );
}

function describe(r: JournalIntentRow): string {
  const i = r.intent;
  if (i.kind === 'place-order') return `${i.type} ${i.baseAmount ?? `${i.quoteAmount} quote`}${i.price ? ` @ ${i.price}` : ''}`;
  if (i.kind === 'execute-quote') return `quote ${i.baseAmount ?? `${i.quoteAmount} quote`}`;
  if (i.kind === 'transfer') return `${i.amount} ${i.asset}`;
  return `cancel ${i.orderRefId}`;
}

function showFills(journal: Journal, opts: ViewOptions, ctx: CliContext): void {
  const fills = journal.strategyFills().filter((f) => opts.strategy === undefined || f.strategy === opts.strategy);
  const shown = fills.slice(-Number(opts.limit));
  if (opts.json) {
    // the journal's own fill rows (fill and order ids, every digit); quote executions have none
    const refs = new Set(fills.map((f) => f.refId));
    writeLine(
      ctx.stdout,
      JSON.stringify(
        journal
          .fills()
          .filter((f) => refs.has(f.refId))
          .slice(-Number(opts.limit)),
      ),
    );
    return;
  }
  const table = shown.map((f) => {
    const { base, quote } = splitMarket(f.market);
    return [
      time(f.at),
      f.strategy,
      f.refId,
      f.market,
      f.side,
      amountOf(f.amount, base),
      priceOf(f.price, f.market),
      f.commissionAsset ? `${amountOf(f.commission, f.commissionAsset)} ${f.commissionAsset}` : `0 ${quote}`,
    ];
  });
  writeLine(ctx.stdout, formatTable(['time', 'strategy', 'ref_id', 'market', 'side', 'amount', 'price', 'commission'], table));
}

function showRoundTrips(journal: Journal, opts: ViewOptions, ctx: CliContext): void {
  const trips = tradesFromFills(journal.strategyFills()).roundTrips.filter(
    (t) => opts.strategy === undefined || t.strategy === opts.strategy,
  );
  const shown = trips.slice(-Number(opts.limit));
  if (opts.json) {
    writeLine(ctx.stdout, JSON.stringify(shown));
    return;
  }
  if (shown.length === 0) {
    writeLine(ctx.stdout, 'no fills in the journal yet: no round trips');
    return;
  }
  writeLine(
    ctx.stdout,
    formatTable(
      ['strategy', 'market', 'entry', 'exit', 'quantity', 'entry price', 'exit price', 'P&L', 'fees', 'fills', 'exit reason'],
      shown.map(tripRow),
    ),
  );
  for (const [strategy, total] of totalsByStrategy(trips)) writeLine(ctx.stdout, `${strategy}: ${total}`);
}

function tripRow(t: JournalRoundTrip): string[] {
  const { base, quote } = splitMarket(t.market);
  return [
    t.strategy,
    t.market,
    time(t.entryAt),
    t.exitAt === undefined ? `open (${amountOf(t.open, base)} held)` : time(t.exitAt),
    amountOf(t.quantity, base),
    priceOf(t.entryPrice, t.market),
    t.exitPrice === undefined ? '-' : priceOf(t.exitPrice, t.market),
    `${amountOf(t.pnl, quote)}${t.exitAt === undefined ? ' realized' : ''}`,
    amountOf(t.fees, quote),
    String(t.fills),
    t.exitReason ?? '-',
  ];
}

/** Per strategy: closed round trips, wins, P&L and fees, summed per quote asset. */
function totalsByStrategy(trips: readonly JournalRoundTrip[]): Map<string, string> {
  const out = new Map<string, string>();
  const strategies = [...new Set(trips.map((t) => t.strategy))];
  for (const s of strategies) {
    const closed = trips.filter((t) => t.strategy === s && t.exitAt !== undefined);
    const quotes = [...new Set(closed.map((t) => splitMarket(t.market).quote))];
    const sums = quotes.map((q) => {
      const mine = closed.filter((t) => splitMarket(t.market).quote === q);
      return `P&L ${amountOf(sum(mine.map((t) => t.pnl)), q)} ${q}, fees ${amountOf(sum(mine.map((t) => t.fees)), q)} ${q}`;
    });
    const wins = closed.filter((t) => new D(t.pnl).gt(0)).length;
    out.set(s, `${closed.length} closed round trip(s), ${wins} won${sums.length ? `; ${sums.join('; ')}` : ''}`);
  }
  return out;
}

function showPositions(journal: Journal, opts: Pick<ViewOptions, 'strategy' | 'json'>, ctx: CliContext): void {
  const positions = journal.positions().filter((p) => opts.strategy === undefined || p.strategy === opts.strategy);
  if (opts.json) {
    writeLine(ctx.stdout, JSON.stringify(positions));
    return;
  }
  if (positions.length === 0) {
    writeLine(ctx.stdout, 'no fills in the journal yet: no positions');
    return;
  }
  writeLine(
    ctx.stdout,
    formatTable(
      [
        'strategy',
        'market',
        'position',
        'avg cost',
        'cost basis',
        'realized P&L',
        'fees',
        'round trips',
        'won',
        'last fill',
        'last fill price',
      ],
      positions.map(positionRow),
    ),
  );
  writeLine(
    ctx.stdout,
    'realized P&L is of what was sold, against the average cost (fees included); the journal holds no current prices, so the open position is shown at cost',
  );
}

function positionRow(p: StrategyPosition): string[] {
  const { base, quote } = splitMarket(p.market);
  return [
    p.strategy,
    p.market,
    `${amountOf(p.position, base)} ${base}`,
    p.averageCost === undefined ? '-' : priceOf(p.averageCost, p.market),
    `${amountOf(p.costBasis, quote)} ${quote}`,
    `${amountOf(p.realizedPnl, quote)} ${quote}`,
    `${amountOf(p.fees, quote)} ${quote}`,
    String(p.roundTrips),
    String(p.wins),
    time(p.lastFillAt),
    priceOf(p.lastPrice, p.market),
  ];
}

function sum(values: readonly string[]): string {
  return values.reduce((acc, v) => acc.plus(v), new D(0)).toFixed();
}

/** An amount at its asset's precision, for people. */
function amountOf(value: string, asset: string): string {
  return formatAmount(value, asset);
}

/** A price at the market's tick (the simulated catalog mirrors the platform's), else the quote asset's precision. */
function priceOf(value: string, market: string): string {
  const decimals = SIMULATED_MARKETS.includes(market)
    ? platformInstrument(market).priceDecimals
    : fallbackPriceDecimals(splitMarket(market).quote);
  return formatPrice(value, decimals);
}

function time(at: number): string {
  return new Date(at).toISOString().replace('.000Z', 'Z');
}
