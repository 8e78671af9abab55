export * from './venue.js';
