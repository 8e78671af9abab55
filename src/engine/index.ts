export * from './engine.js';
export * from './intent-ids.js';
export * from './risk-view.js';
export * from './strategy-runner.js';
