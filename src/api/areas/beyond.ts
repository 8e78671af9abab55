import type { CallOptions } from '../http/executor.js';
import type { Empty } from '../types/common.js';
import type {
  BeyondQuery, CryptoDestinationAddress, Event, ListCryptoDestinationAddressesQuery, ListEventsQuery, ListEventsResponse, NamedList,
  PutCryptoDestinationAddressRequest,
} from '../types/beyond.js';
import type { Caller } from './caller.js';

type Body = Readonly<Record<string, unknown>>;
type Record_ = Readonly<Record<string, unknown>>;

/**
 * Typed methods of the operations the public API has beyond the platform spec: the event feed,
 * crypto destination addresses, statements and payments, API credentials, orchestrations and their
 * rules, rewards monitoring addresses and issuer quotes.
 */
export function beyondMethods(call: Caller) {
  return {
    /** ListEvents: ascending by created_at, at most `limit` (1–100). */
    listEvents: (query: ListEventsQuery = {}, opts?: CallOptions) => call<ListEventsResponse>('ListEvents', { query }, opts),
    getEvent: (id: string, query: { is_test?: boolean } = {}, opts?: CallOptions) => call<Event>('GetEvent', { path: { id }, query }, opts),
    listCryptoDestinationAddresses: (query: ListCryptoDestinationAddressesQuery = {}, opts?: CallOptions) =>
      call<NamedList<'addresses', CryptoDestinationAddress>>('ListCryptoDestinationAddresses', { query }, opts),
    /** Creates the entry for (crypto_network, address) or updates it (by `id`, or by that pair). */
    putCryptoDestinationAddress: (body: PutCryptoDestinationAddressRequest, opts?: CallOptions) =>
      call<{ readonly address: CryptoDestinationAddress }>('PutCryptoDestinationAddress', { body }, opts),
    listStatements: (query: BeyondQuery = {}, opts?: CallOptions) => call<NamedList<'statements'>>('ListStatements', { query }, opts),
    listPayments: (query: BeyondQuery = {}, opts?: CallOptions) => call<NamedList<'payments'>>('ListPayments', { query }, opts),
    listApiCredentials: (query: BeyondQuery = {}, opts?: CallOptions) => call<NamedList<'items'>>('ListApiCredentials', { query }, opts),
    deleteApiCredentials: (clientId: string, opts?: CallOptions) => call<Empty>('DeleteApiCredentials', { path: { client_id: clientId } }, opts),
    listOrchestrations: (query: BeyondQuery = {}, opts?: CallOptions) => call<NamedList<'orchestrations'>>('ListOrchestrations', { query }, opts),
    createOrchestration: (body: Body, opts?: CallOptions) => call<Record_>('CreateOrchestration', { body }, opts),
    getOrchestration: (id: string, opts?: CallOptions) => call<Record_>('GetOrchestration', { path: { id } }, opts),
    listOrchestrationRules: (query: BeyondQuery = {}, opts?: CallOptions) => call<NamedList<'rules'>>('ListOrchestrationRules', { query }, opts),
    createOrchestrationRule: (body: Body, opts?: CallOptions) => call<Record_>('CreateOrchestrationRule', { body }, opts),
    deleteOrchestrationRule: (id: string, opts?: CallOptions) => call<Record_>('DeleteOrchestrationRule', { path: { id } }, opts),
    listMonitoringAddress: (query: BeyondQuery = {}, opts?: CallOptions) => call<NamedList<'addresses'>>('ListMonitoringAddress', { query }, opts),
    createMonitoringAddress: (body: Body, opts?: CallOptions) => call<Record_>('CreateMonitoringAddress', { body }, opts),
    getMonitoringAddress: (id: string, opts?: CallOptions) => call<Record_>('GetMonitoringAddress', { path: { id } }, opts),
    updateMonitoringAddress: (id: string, body: Body, opts?: CallOptions) => call<Record_>('UpdateMonitoringAddress', { path: { id }, body }, opts),
    listIssuerQuoteExecutions: (query: BeyondQuery = {}, opts?: CallOptions) =>
      call<NamedList<'issuer_quote_executions'>>('ListIssuerQuoteExecutions', { query }, opts),
    createIssuerQuote: (body: Body, opts?: CallOptions) => call<Record_>('CreateIssuerQuote', { body }, opts),
    createIssuerQuoteExecution: (quoteId: string, body: Body, opts?: CallOptions) =>
      call<Record_>('CreateIssuerQuoteExecution', { path: { quote_id: quoteId }, body }, opts),
  };
}

export type BeyondApi = ReturnType<typeof beyondMethods>;
