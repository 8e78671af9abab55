/** The local sandbox: the simulated platform (`src/sim`) behind the platform's HTTP wire contract. */
export { startSandbox, TRUTH_PATH, type SandboxHandle, type SandboxOptions } from './server.js';
export {
  FaultInjector,
  parseFaults,
  describeFaults,
  FAULT_MODES,
  type FaultMode,
  type FaultRule,
  type FaultSettings,
  type InjectedFault,
} from './faults.js';
export { FaultLog, DEFAULT_FAULT_LOG_LIMIT } from './fault-log.js';
export { parseRateLimits, PLATFORM_RATE_BUDGETS, type RateLimitSettings } from './rate-limits.js';
export { loadState, saveState } from './state-file.js';
export { StateStore, savedWorldTime } from './state-store.js';
export { type SandboxTruth } from './truth.js';
export { ALL_SCOPES, type SandboxClient } from './auth.js';
export { DEFAULT_SHAPES, SCHEMA_SHAPES, EXAMPLE_SHAPES, SHAPE_MODES, shapesOf, type ShapeMode, type WireShapes } from './wire.js';
export { ROUTES } from './routes/index.js';
export { type Route } from './router.js';
