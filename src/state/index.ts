export * from './observed.js';
export * from './market-snapshot.js';
export * from './reduce-market.js';
export * from './price-history.js';
export * from './market-store.js';
export * from './account-store.js';
