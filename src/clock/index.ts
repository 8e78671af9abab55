export * from './clock.js';
export * from './live-clock.js';
export * from './test-clock.js';
export * from './rx-scheduler.js';
