export * from './define.js';
export * from './plots.js';
export * from './params.js';
export * from './loader.js';
export * from './testkit.js';
