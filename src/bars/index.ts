export * from './timeframe.js';
export * from './bar.js';
export * from './bar-builder.js';
export * from './bar-series.js';
export * from './bar-feed.js';
export * from './resample.js';
export * from './bar-indicators.js';
