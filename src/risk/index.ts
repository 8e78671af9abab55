export * from './limits.js';
export * from './view.js';
export * from './denial.js';
export * from './gate.js';
export * from './kill-switch.js';
export * from './rate-window.js';
export * from './pauses.js';
