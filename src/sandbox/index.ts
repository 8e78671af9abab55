/** The local sandbox: the simulated platform (`src/sim`) behind the platform's HTTP wire contract. */
export { startSandbox, type SandboxHandle, type SandboxOptions } from './server.js';
export { ALL_SCOPES, type SandboxClient } from './auth.js';
export { DEFAULT_SHAPES, type WireShapes } from './wire.js';
export { ROUTES } from './routes/index.js';
export { type Route } from './router.js';
