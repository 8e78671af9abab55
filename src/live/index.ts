export * from './run-view.js';
export * from './live-run.js';
export * from './live-bundle.js';
export { archiveLocalWorld, localStatePath, newInstanceId } from './local-world.js';
export * from './load-strategies.js';
export * from './journal-watch.js';
