export * from './engine.js';
export * from './intent-ids.js';
export * from './risk-view.js';
export * from './strategy-runner.js';
export * from './run-view.js';
export * from './live-run.js';
export * from './live-bundle.js';
export * from './load-strategies.js';
