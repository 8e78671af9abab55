export * from './errors.js';
export * from './decimal.js';
export * from './rng.js';
export * from './markets.js';
export * from './messages.js';
export * from './instrument.js';
export * from './money-format.js';
