import { Writable } from 'node:stream';
import { LiveClock } from '../../src/clock/live-clock.js';
import { Rng } from '../../src/core/rng.js';
import { createLogger, type Logger } from '../../src/log/logger.js';
import { type SecretSet } from '../../src/log/redact.js';
import { createApiClient, type ApiClient, type ApiClientOptions } from '../../src/api/index.js';
import type { FakePlatform } from '../support/fake-platform.js';

/** A client against the fake platform with fast retries (LiveClock, millisecond backoffs). */
export function clientFor(fake: FakePlatform, overrides: Partial<ApiClientOptions> = {}): ApiClient {
  let seq = 0;
  return createApiClient({
    apiUrl: fake.baseUrl,
    tokenUrl: fake.tokenUrl,
    clientId: 'test-client',
    clientSecret: 'test-secret',
    clock: new LiveClock(),
    rng: new Rng(7),
    makeRefId: () => `ref-${++seq}`,
    baseBackoffMs: 2,
    maxBackoffMs: 10,
    ...overrides,
  });
}

/** A JSON logger writing into memory, to check what reaches log lines. */
export function memoryLogger(secrets?: SecretSet, level = 'trace'): { logger: Logger; lines: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  const logger = createLogger({ level, destination, secrets, pretty: false });
  return { logger, lines: () => chunks.join('') };
}

/** Polls (on the real event loop, not wall-time sleeps) until `cond` holds. */
export async function until(cond: () => boolean, turns = 2000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (cond()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error('condition not reached');
}

export const ORDER = {
  id: 'b77dfa01-e63e-4256-b45f-3d0aa846fb61',
  profile_id: 'p1',
  status: 'OPEN',
  side: 'BUY',
  market: 'BTCUSD',
  type: 'LIMIT',
  price: '61250.50',
  base_amount: '0.015',
};
