export * from './venue.js';
export * from './source.js';
export * from './market-api.js';
export * from './state.js';
