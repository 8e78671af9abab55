export * from './schema.js';
export * from './load.js';
export * from './environment.js';
export * from './risk-schema.js';
export * from './locate.js';
export { MONEY_PATHS, MAX_PLAIN_DIGITS } from './yaml-money.js';
export { configIssueMessage } from './messages.js';
