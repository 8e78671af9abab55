export * from './engine.js';
export * from './kernel.js';
export * from './open-order-book.js';
export * from './intent-ids.js';
export * from './risk-view.js';
export * from './strategy-runner.js';
export * from './venue-metadata.js';
export * from './plots.js';
