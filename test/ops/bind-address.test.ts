/**
 * The operations server judges the address it binds as the system resolves it: a name that stands
 * for a wildcard (every interface) is refused naming ui.host, and nothing listens; a name that stands
 * for one address is bound to that address.
 */
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import { InputError } from '../../src/core/index.js';
import { OpsState, RunMetrics, startOpsServer } from '../../src/ops/index.js';
import { stubRun } from './stub-run.js';

function options(host: string, address: string) {
  const clock = new TestClock(1_700_000_000_000);
  const stub = stubRun(clock);
  const state = new OpsState(stub.run);
  const metrics = new RunMetrics({ processMetrics: false });
  metrics.attach(stub.run, state);
  const asked: string[] = [];
  const resolve = async (h: string): Promise<{ address: string }> => {
    asked.push(h);
    return { address };
  };
  return { opts: { host, port: 0, token: 'bind-token-0123456789abcdef', run: stub.run, state, metrics, timers: clock, resolve }, asked };
}

describe("the operations server's bound address", () => {
  it.each(['0.0.0.0', '::', '::ffff:0.0.0.0'])('refuses a name that resolves to the wildcard %s, naming ui.host', async (address) => {
    const { opts, asked } = options('everywhere.example', address);
    const err = await startOpsServer(opts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).field).toBe('ui.host');
    expect((err as Error).message).toMatch(/"everywhere\.example" resolves to .* which listens on every interface: bind one address/);
    expect(asked).toEqual(['everywhere.example']);
  });

  it('binds the one address a name resolves to', async () => {
    const { opts } = options('dashboard.example', '127.0.0.1');
    const server = await startOpsServer(opts);
    try {
      expect(server.url).toBe(`http://dashboard.example:${server.port}/`);
      // it listens on the resolved address (and, asked there by its number, refuses the Host as not its name)
      const res = await fetch(`http://127.0.0.1:${server.port}/`);
      expect(res.status).toBe(403);
    } finally {
      await server.close();
    }
  });
});
