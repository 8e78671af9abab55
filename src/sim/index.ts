/**
 * The face of src/sim toward the rest of tradeloop. src/sim is the simulated platform in parts, each
 * importing only the parts named before it, and the platform's facts (src/platform: instruments,
 * order rules, transfer limits) below them all:
 *
 * - the kernel, at the top: `errors.ts`, `ids.ts`, `time.ts`, `hash.ts`, `owners.ts`, `wire-fields.ts`;
 * - `prices/`: price files (CSV, JSON) read into series, for the backtester and the sandbox's `--replay`;
 * - `market/`: the synthetic world: the market catalog, price models, historical prices, the synthetic
 *   book and tape;
 * - `exchange/`: profiles, the ledger, order entry, matching, settlement, each market's state
 *   and data, held-rate quotes;
 * - `platform/`: the areas beyond trading: identities, accounts, transfers and their limits, fiat,
 *   crypto, settlements, conversions, tax forms;
 * - the assembly, at the top: `SimPlatform` (`sim.ts`), its options, ticks and snapshot, and this file;
 * - `replay/`: point replay, the backtester's simulator over price points, built on the kernel,
 *   market/ and exchange/, and on the platform's transfer rules alone.
 *
 * The sandbox, the HTTP face of SimPlatform, takes what market/, exchange/ and platform/ offer it
 * from here: the records SimPlatform's queries return and the platform vocabulary of its wire. Other
 * code imports files: the top-level ones, and the catalog, replay/ and prices/ on the
 * backtest path, which never loads this file (it loads the whole platform). eslint.config.js holds
 * these boundaries.
 */
export { marketSpec } from './market/catalog.js';
export type { WindowStats } from './market/history.js';

export type { Profile } from './exchange/profiles.js';
export { isClosed, type OrderRecord, type OrderStatus, type SimExecution } from './exchange/order-types.js';
export type { OrderFilter, SimBalance } from './exchange/account-views.js';
export type { PriceView, TickerView } from './exchange/market-data.js';
export type { SimQuote } from './exchange/quotes.js';
export type { QuoteExecutionStatus, SimQuoteExecution } from './exchange/quote-executions.js';

export { IDENTITY_STATUSES } from './platform/identity-rules.js';
export { summaryStatus, type SimIdentity } from './platform/identities.js';
export { DOCUMENT_FORMATS, sniffFormat, type SimDocument } from './platform/identity-documents.js';
export type { SimAccount } from './platform/accounts.js';
export { TRANSFER_TYPES, type TransferLimitView } from './platform/transfer-limit-rules.js';
export type { SimTransfer } from './platform/transfers.js';
export { withinBounds, type TimeBounds, type TransferFilter } from './platform/transfer-query.js';
export type { SimFiatAccount } from './platform/fiat.js';
export type { SimDepositInstructions } from './platform/fiat-transfers.js';
export type { SimDepositAddress, SimWithdrawalFee } from './platform/crypto.js';
export { SETTLEMENT_STATUSES, type SimSettlement } from './platform/settlement-transactions.js';
export type { SimConversion } from './platform/conversions.js';
export type { TaxFormLink } from './platform/tax-forms.js';
export { deriveEvents, type SimEvent, type EventSubject } from './platform/events.js';
export type { SimDestinationAddress } from './platform/destination-addresses.js';
