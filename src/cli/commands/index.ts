import type { RegisterCommand } from '../context.js';
import { registerApi } from './api.js';
import { registerBacktest } from './backtest.js';
import { registerCtl } from './ctl.js';
import { registerDivergence } from './divergence.js';
import { registerSandbox } from './sandbox.js';
import { registerHistory } from './history.js';
import { registerInit } from './init.js';
import { registerJournalViews } from './journal-views.js';
import { registerNewStrategy } from './new-strategy.js';
import { registerOptimize } from './optimize.js';
import { registerRun } from './run.js';
import { registerStart } from './start.js';
import { registerTest } from './test.js';
import { registerWorker } from './worker.js';

/** Every CLI command, in the order `--help` lists them. Add new commands here. */
export const COMMANDS: readonly RegisterCommand[] = [registerRun, registerStart, registerCtl, registerApi, registerSandbox, registerJournalViews, registerInit, registerNewStrategy, registerTest, registerBacktest, registerDivergence, registerOptimize, registerWorker, registerHistory];
