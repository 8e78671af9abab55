export * from './schema.js';
export * from './load.js';
export * from './environment.js';
export * from './risk-schema.js';
