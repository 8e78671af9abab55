import type { CallInput, CallOptions } from '../http/executor.js';

/** What area method groups are built on: the generic call by operationId. */
export type Caller = <T>(operationId: string, input?: CallInput, opts?: CallOptions) => Promise<T>;
