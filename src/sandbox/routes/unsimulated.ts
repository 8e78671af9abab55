import { type Query } from '../query.js';
import { problem } from '../problem.js';
import { type Route, type RouteContext } from '../router.js';
import { rangeBounds, timeBounds } from './list-helpers.js';

/**
 * Operations of the public API over resources the sandbox does not simulate: statements and
 * payments (USDG rewards), API credentials, orchestrations and their rules, rewards monitoring
 * addresses, issuer quotes. Lists check their filters and answer a valid, empty list in the
 * schema's shape; reads and writes of one record answer 404 for an id (the sandbox holds none) and
 * 403 "feature not enabled" for a create, so a client learns what the sandbox lacks instead of
 * meeting "no operation".
 */

const NOT_ENABLED = 'feature not enabled: the local sandbox does not simulate';

/** The paging filters every one of these lists takes: `limit`, `order`, `page_cursor` (and `order_by`). */
function checkPaging(q: Query, orderBy?: readonly string[]): void {
  q.int('limit', 1, 1000);
  q.oneOf('order', ['ASC', 'DESC'] as const);
  if (orderBy !== undefined) q.oneOf('order_by', orderBy);
  q.string('page_cursor');
}

function emptyList(key: string, check: (q: Query) => void): (ctx: RouteContext) => unknown {
  return (ctx) => {
    check(ctx.query);
    checkPaging(ctx.query, key === 'items' ? ['CREATED_AT', 'UPDATED_AT'] : undefined);
    return { [key]: [], next_page_cursor: '' };
  };
}

function notEnabled(what: string): (ctx: RouteContext) => Promise<unknown> {
  return async (ctx) => {
    if (ctx.req.method !== 'GET' && ctx.req.method !== 'DELETE') await ctx.body();
    throw problem(403, `${NOT_ENABLED} ${what}`);
  };
}

function unknownRecord(what: string, param: string): (ctx: RouteContext) => Promise<unknown> {
  return async (ctx) => {
    if (ctx.req.method === 'PUT' || ctx.req.method === 'POST') await ctx.body();
    throw problem(404, `${what} ${ctx.params[param] ?? ''} not found (the local sandbox simulates none)`);
  };
}

const STATEMENT_STATUSES = [
  'STATEMENT_STATUS_UNSPECIFIED',
  'STATEMENT_STATUS_INITIATED',
  'STATEMENT_STATUS_GENERATED',
  'STATEMENT_STATUS_PAID',
] as const;
const PAYMENT_STATUSES = ['PAYMENT_STATUS_PENDING', 'PAYMENT_STATUS_COMPLETED', 'PAYMENT_STATUS_FAILED'] as const;
const ISSUER_STATUSES = ['PENDING', 'COMPLETE', 'FAILED'] as const;

function enumArray(q: Query, name: string, allowed: readonly string[]): void {
  for (const v of q.array(name))
    if (!allowed.includes(v))
      throw problem(400, `${name}: ${JSON.stringify(v)} is not valid: use one of ${allowed.join(', ')}`, { field: name });
}

/** DeleteApiCredentials: the caller's own credential exists but is not the sandbox's to delete (403); any other id is unknown (404). */
function deleteCredential(ctx: RouteContext): unknown {
  const clientId = ctx.params.client_id ?? '';
  if (clientId === ctx.clientId)
    throw problem(403, `${NOT_ENABLED} API credential management: the sandbox's credentials come from its start options (--client-id)`);
  throw problem(404, `API credential ${clientId} not found`);
}

export const UNSIMULATED_ROUTES: readonly Route[] = [
  {
    operation: 'ListStatements',
    method: 'GET',
    path: '/v2/statements',
    scope: 'statements:read_statement',
    handler: emptyList('statements', (q) => {
      q.string('customer_id');
      q.array('ref_ids');
      q.array('statement_ids');
      enumArray(q, 'statuses', STATEMENT_STATUSES);
    }),
  },
  {
    operation: 'ListPayments',
    method: 'GET',
    path: '/v2/statements/payments',
    scope: 'statements:read_payment',
    handler: emptyList('payments', (q) => {
      q.array('ref_ids');
      q.array('payment_ids');
      q.string('customer_id');
      q.oneOf('product', ['USDG_REWARDS'] as const);
      q.oneOf('payment_status', PAYMENT_STATUSES);
    }),
  },
  {
    operation: 'ListApiCredentials',
    method: 'GET',
    path: '/v2/api-creds/credentials',
    scope: 'api_creds:read_credentials',
    handler: emptyList('items', (q) => {
      enumArray(q, 'statuses', ['APPROVED', 'DISABLED']);
      q.array('ids');
      q.array('client_ids');
    }),
  },
  {
    operation: 'DeleteApiCredentials',
    method: 'DELETE',
    path: '/v2/api-creds/credentials/:client_id',
    scope: 'api_creds:delete_credentials',
    handler: deleteCredential,
  },
  {
    operation: 'ListOrchestrations',
    method: 'GET',
    path: '/v2/orchestration/orchestrations',
    scope: 'orchestration:read_orchestration',
    handler: emptyList('orchestrations', (q) => {
      for (const name of ['orchestration_rule_id', 'source_asset', 'destination_asset', 'orchestration_id', 'profile_id']) q.array(name);
      enumArray(q, 'status', ['PROCESSING', 'COMPLETED', 'FAILED']);
      timeBounds(q, 'created_at');
    }),
  },
  {
    operation: 'CreateOrchestration',
    method: 'POST',
    path: '/v2/orchestration/orchestrations',
    scope: 'orchestration:write_orchestration',
    handler: notEnabled('orchestrations'),
  },
  {
    operation: 'GetOrchestration',
    method: 'GET',
    path: '/v2/orchestration/orchestrations/:id',
    scope: 'orchestration:read_orchestration',
    handler: unknownRecord('orchestration', 'id'),
  },
  {
    operation: 'ListOrchestrationRules',
    method: 'GET',
    path: '/v2/orchestration/rules',
    scope: 'orchestration:read_orchestration_rule',
    handler: emptyList('rules', (q) => {
      q.string('profile_id');
      enumArray(q, 'status', ['ACTIVE', 'DELETED', 'PENDING', 'REJECTED', 'CANCELLED']);
      q.string('source_asset');
      q.string('destination_asset');
      q.array('ids');
    }),
  },
  {
    operation: 'CreateOrchestrationRule',
    method: 'POST',
    path: '/v2/orchestration/rules',
    scope: 'orchestration:write_orchestration_rule',
    handler: notEnabled('orchestration rules'),
  },
  {
    operation: 'DeleteOrchestrationRule',
    method: 'DELETE',
    path: '/v2/orchestration/rules/:id',
    scope: 'orchestration:write_orchestration_rule',
    handler: unknownRecord('orchestration rule', 'id'),
  },
  {
    operation: 'ListMonitoringAddress',
    method: 'GET',
    path: '/v2/rewards/monitor/address',
    scope: 'rewards:read_monitoring_address',
    handler: emptyList('addresses', (q) => {
      q.string('address');
      q.string('crypto_network');
    }),
  },
  {
    operation: 'CreateMonitoringAddress',
    method: 'POST',
    path: '/v2/rewards/monitor/address',
    scope: 'rewards:write_monitoring_address',
    handler: notEnabled('rewards monitoring addresses'),
  },
  {
    operation: 'GetMonitoringAddress',
    method: 'GET',
    path: '/v2/rewards/monitor/address/:id',
    scope: 'rewards:read_monitoring_address',
    handler: unknownRecord('monitoring address', 'id'),
  },
  {
    operation: 'UpdateMonitoringAddress',
    method: 'PUT',
    path: '/v2/rewards/monitor/address/:id',
    scope: 'rewards:write_monitoring_address',
    handler: unknownRecord('monitoring address', 'id'),
  },
  {
    operation: 'ListIssuerQuoteExecutions',
    method: 'GET',
    path: '/v2/issuer-quotes',
    scope: 'exchange:read_issuer_quote_execution',
    handler: emptyList('issuer_quote_executions', (q) => {
      q.string('profile_id');
      enumArray(q, 'status', ISSUER_STATUSES);
      rangeBounds(q, 'created_range');
    }),
  },
  {
    operation: 'CreateIssuerQuote',
    method: 'POST',
    path: '/v2/issuer-quote',
    scope: 'exchange:write_issuer_quote',
    handler: notEnabled('issuer quotes (held mint and redeem rates)'),
  },
  {
    operation: 'CreateIssuerQuoteExecution',
    method: 'POST',
    path: '/v2/issuer-quote/:quote_id',
    scope: 'exchange:write_issuer_quote_execution',
    handler: unknownRecord('issuer quote', 'quote_id'),
  },
];
