import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/index.js';
import { TestClock } from '../clock/test-clock.js';
import { parseConfig } from '../config/load.js';
import { SimPlatform } from '../sim/sim.js';
import { simMarketDataApi } from '../../test/support/streams-sim-api.js';
import { turns } from '../../test/support/streams-harness.js';
import { RequestBudget } from '../venue/polling/index.js';
import { pollingSource } from './live-bundle.js';

const T0 = Date.UTC(2025, 2, 4, 10, 0, 0);

describe("the run's market source", () => {
  it('polls fills and quote executions at streams.fills_ms and streams.quote_executions_ms, apart from open orders', async () => {
    const clock = new TestClock(T0);
    const sim = new SimPlatform({ clock, seed: 1, funding: { USD: '1000' } });
    const times: Record<string, number[]> = {};
    const api = simMarketDataApi(sim, { onCall: (op) => (times[op] ??= []).push(clock.now()) }) as unknown as ApiClient;
    const config = parseConfig({ streams: { orders_ms: 2_000, fills_ms: 3_000, quote_executions_ms: 500, balances_ms: 4_000 } });
    const source = pollingSource({ api, clock, profileId: 'default', config, log: undefined as never, budget: new RequestBudget({ clock }) });
    source.start([]);
    await turns();
    for (let t = 0; t < 6_000; t += 250) {
      clock.advance(250);
      await turns();
    }
    await source.stop();
    const every = (ms: number): number[] => Array.from({ length: Math.floor(6_000 / ms) + 1 }, (_, i) => T0 + i * ms);
    expect(times.ListProfileOrders).toEqual(every(2_000));
    expect(times.ListProfileExecutions).toEqual(every(3_000));
    expect(times.ListQuoteExecutions).toEqual(every(500));
  });
});
