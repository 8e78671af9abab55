export * from './venue.js';
export * from './sim-venue.js';
export * from './rest-venue.js';
