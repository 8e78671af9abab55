import { TRADING_MARKETS } from '../../core/markets.js';
import type { QuoteExecutionStatus } from '../../sim/index.js';
import { pageOf } from '../paging.js';
import { badRequest } from '../problem.js';
import { type Route, type RouteContext } from '../router.js';
import { wireQuote, wireQuoteExecution } from '../wire.js';

const STATUSES: readonly QuoteExecutionStatus[] = ['CREATED', 'SETTLED'];

function listQuotes(ctx: RouteContext): unknown {
  const markets = ctx.query.array('markets');
  if (markets.length === 0) throw badRequest('markets', 'required: repeat it per market, e.g. markets=BTCUSD&markets=ETHUSD');
  for (const m of markets)
    if (!(TRADING_MARKETS as readonly string[]).includes(m))
      throw badRequest('markets', `${JSON.stringify(m)} is not a trading market: use one of ${TRADING_MARKETS.join(', ')}`);
  return { items: ctx.sim.listQuotes(markets).map(wireQuote) };
}

async function createQuoteExecution(ctx: RouteContext): Promise<unknown> {
  const b = await ctx.body();
  ctx.sim.profiles.owned(ctx.params.profile_id ?? '', ctx.owner);
  const x = ctx.sim.executeQuote({
    profileId: ctx.params.profile_id ?? '',
    quoteId: b.quote_id,
    refId: b.ref_id,
    baseAmount: b.base_amount,
    quoteAmount: b.quote_amount,
    metadata: b.metadata,
    identityId: b.identity_id,
    accountId: b.account_id,
    recipientProfileId: b.recipient_profile_id,
  });
  return wireQuoteExecution(x);
}

function listQuoteExecutions(ctx: RouteContext): unknown {
  const q = ctx.query;
  const side = q.oneOf('side', ['BUY', 'SELL'] as const);
  const market = q.oneOf('market', TRADING_MARKETS);
  const status = q.oneOf('status', STATUSES);
  const beginMs = q.time('created_at.begin');
  const endMs = q.time('created_at.end');
  const order = q.oneOf('order', ['ASC', 'DESC'] as const) ?? 'DESC';
  q.oneOf('order_by', ['CREATED_AT'] as const);
  let all = ctx.sim.listQuoteExecutions({
    profileId: ctx.params.profile_id ?? '',
    ...(side !== undefined ? { side } : {}),
    ...(market !== undefined ? { market } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(beginMs !== undefined ? { beginMs } : {}),
    ...(endMs !== undefined ? { endMs } : {}),
  });
  if (order === 'ASC') all = all.reverse();
  const page = pageOf(all, (x) => x.seq, order === 'DESC', q.string('page_cursor'), q.int('limit', 1, 1000) ?? 100);
  return { total_count: all.length, items: page.items.map(wireQuoteExecution), next_page_cursor: page.nextPageCursor };
}

/** Held-rate quotes and quote executions (scopes exchange:read_quote, exchange:*_quote_execution). */
export const QUOTE_ROUTES: readonly Route[] = [
  { operation: 'ListQuotes', method: 'GET', path: '/v2/quotes', scope: 'exchange:read_quote', handler: listQuotes },
  {
    operation: 'CreateQuoteExecution',
    method: 'POST',
    path: '/v2/profiles/:profile_id/quote-executions',
    scope: 'exchange:write_quote_execution',
    handler: createQuoteExecution,
  },
  {
    operation: 'ListQuoteExecutions',
    method: 'GET',
    path: '/v2/profiles/:profile_id/quote-executions',
    scope: 'exchange:read_quote_execution',
    handler: listQuoteExecutions,
  },
  {
    operation: 'GetQuoteExecution',
    method: 'GET',
    path: '/v2/profiles/:profile_id/quote-executions/:id',
    scope: 'exchange:read_quote_execution',
    handler: (ctx) => wireQuoteExecution(ctx.sim.getQuoteExecution(ctx.params.profile_id ?? '', ctx.params.id ?? '')),
  },
];
