import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/index.js';
import { parseConfig } from '../config/load.js';
import { accountPollTimes, pollsEvery } from '../../test/support/streams-sim-api.js';
import { RequestBudget } from '../venue/polling/index.js';
import { pollingSource } from './live-bundle.js';

describe("the run's market source", () => {
  it('polls fills and quote executions at streams.fills_ms and streams.quote_executions_ms, apart from open orders', async () => {
    const config = parseConfig({ streams: { orders_ms: 2_000, fills_ms: 3_000, quote_executions_ms: 500, balances_ms: 4_000 } });
    const times = await accountPollTimes(
      (api, clock) =>
        pollingSource({
          api: api as unknown as ApiClient,
          clock,
          profileId: 'default',
          config,
          log: undefined as never,
          budget: new RequestBudget({ clock }),
        }),
      6_000,
    );
    expect(times.ListProfileOrders).toEqual(pollsEvery(2_000, 6_000));
    expect(times.ListProfileExecutions).toEqual(pollsEvery(3_000, 6_000));
    expect(times.ListQuoteExecutions).toEqual(pollsEvery(500, 6_000));
  });
});
