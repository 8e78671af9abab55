export * from './journal.js';
export * from './journal-schema.js';
export * from './exec-context.js';
export * from './order-executor.js';
export * from './quote-executor.js';
export * from './transfer-executor.js';
export * from './fill-tracker.js';
export * from './reconciler.js';
