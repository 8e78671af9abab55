export * from './venue.js';
export * from './sim-venue.js';
