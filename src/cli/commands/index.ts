import type { RegisterCommand } from '../context.js';
import { registerSandbox } from './sandbox.js';
import { registerStart } from './start.js';

/** Every CLI command, in the order `--help` lists them. Add new commands here. */
export const COMMANDS: readonly RegisterCommand[] = [registerStart, registerSandbox];
