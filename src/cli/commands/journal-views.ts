import { existsSync } from 'node:fs';
import { type Command } from 'commander';
import { Journal, type JournalIntentRow } from '../../exec/index.js';
import { CliExit, type CliContext, writeLine } from '../context.js';
import { formatTable } from '../table.js';

const DEFAULT_JOURNAL = '.tradeloop/journal.sqlite';

interface ViewOptions {
  readonly journal: string;
  readonly json?: boolean;
  readonly limit: string;
  readonly state?: string;
}

/** `tradeloop orders` and `tradeloop trades`: read the journal as a table or JSON. */
export function registerJournalViews(program: Command, ctx: CliContext): void {
  program
    .command('orders')
    .description('list journaled intents and orders (newest first) with their state at the venue')
    .option('--journal <file>', 'journal file', DEFAULT_JOURNAL)
    .option('--state <state>', 'only this journal state: denied, pending, sent, open, done, unresolved')
    .option('--limit <n>', 'at most this many rows', '50')
    .option('--json', 'one JSON array on stdout')
    .action((opts: ViewOptions) => withJournal(opts, (j) => showOrders(j, opts, ctx)));
  program
    .command('trades')
    .description('list fills recorded in the journal (oldest first)')
    .option('--journal <file>', 'journal file', DEFAULT_JOURNAL)
    .option('--limit <n>', 'at most this many rows', '1000')
    .option('--json', 'one JSON array on stdout')
    .action((opts: ViewOptions) => withJournal(opts, (j) => showTrades(j, opts, ctx)));
}

function withJournal(opts: ViewOptions, fn: (j: Journal) => void): void {
  if (!existsSync(opts.journal)) throw new CliExit(2, `error: journal ${opts.journal} does not exist: run a strategy first, or pass --journal FILE`);
  const limit = Number(opts.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new CliExit(2, `error: --limit must be a positive integer, got ${JSON.stringify(opts.limit)}`);
  const states = ['denied', 'pending', 'sent', 'open', 'done', 'unresolved'];
  if (opts.state !== undefined && !states.includes(opts.state)) throw new CliExit(2, `error: --state must be one of ${states.join(', ')}`);
  const journal = new Journal(opts.journal);
  try {
    fn(journal);
  } finally {
    journal.close();
  }
}

function showOrders(journal: Journal, opts: ViewOptions, ctx: CliContext): void {
  const rows = journal.intents({ limit: Number(opts.limit), ...(opts.state && { state: opts.state as JournalIntentRow['state'] }) });
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
    r.amountFilled,
  ]);
  writeLine(ctx.stdout, formatTable(['created', 'ref_id', 'strategy', 'kind', 'market', 'side', 'size', 'state', 'status', 'filled'], table));
}

function describe(r: JournalIntentRow): string {
  const i = r.intent;
  if (i.kind === 'place-order') return `${i.type} ${i.baseAmount ?? `${i.quoteAmount} quote`}${i.price ? ` @ ${i.price}` : ''}`;
  if (i.kind === 'execute-quote') return `quote ${i.baseAmount ?? `${i.quoteAmount} quote`}`;
  if (i.kind === 'transfer') return `${i.amount} ${i.asset}`;
  return `cancel ${i.orderRefId}`;
}

function showTrades(journal: Journal, opts: ViewOptions, ctx: CliContext): void {
  const fills = journal.fills({ limit: Number(opts.limit) });
  if (opts.json) {
    writeLine(ctx.stdout, JSON.stringify(fills));
    return;
  }
  const table = fills.map((f) => [new Date(f.at).toISOString(), f.refId, f.market, f.side, f.amount, f.price, `${f.commission} ${f.commissionAsset}`]);
  writeLine(ctx.stdout, formatTable(['time', 'ref_id', 'market', 'side', 'amount', 'price', 'commission'], table));
}
