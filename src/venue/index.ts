export * from './venue.js';
export * from './sim-venue.js';
export * from './rest-venue.js';
export * from './market-source.js';
export * from './polling/index.js';
