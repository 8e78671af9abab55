import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../config/load.js';
import { accountPollTimes, pollsEvery } from '../../../test/support/streams-sim-api.js';
import { PollingMarketSource } from './polling-market-source.js';
import { streamSettingsFromConfig } from './from-config.js';

/** Request times per operation of the account streams of a source built from this `streams` section, over 12 s. */
function pollTimes(streams: Record<string, unknown>): Promise<Record<string, number[]>> {
  const settings = streamSettingsFromConfig(parseConfig({ streams }).streams);
  return accountPollTimes(
    (api, clock) => new PollingMarketSource({ api, clock, profileId: 'default', intervals: settings.intervals }),
    12_000,
  );
}

const every = (ms: number): number[] => pollsEvery(ms, 12_000);

describe('streams.fills_ms and streams.quote_executions_ms', () => {
  it('default to orders_ms, so a file that sets only orders_ms moves all three', () => {
    const s = parseConfig({ streams: { orders_ms: 700 } }).streams;
    expect([s.orders_ms, s.fills_ms, s.quote_executions_ms]).toEqual([700, 700, 700]);
    expect(streamSettingsFromConfig(s).intervals).toMatchObject({ ordersMs: 700, fillsMs: 700, quoteExecutionsMs: 700 });
    expect(parseConfig({}).streams).toMatchObject({ orders_ms: 1_000, fills_ms: 1_000, quote_executions_ms: 1_000 });
  });

  it('set the fills and quote-executions polls apart from the open-orders poll', async () => {
    const times = await pollTimes({ orders_ms: 2_000, fills_ms: 3_000, quote_executions_ms: 500, balances_ms: 4_000 });
    expect(times.ListProfileOrders).toEqual(every(2_000));
    expect(times.ListProfileExecutions).toEqual(every(3_000));
    expect(times.ListQuoteExecutions).toEqual(every(500));
    expect(times.ListProfileBalances).toEqual(every(4_000));
  });

  it('keep all three at the orders cadence when unset', async () => {
    const times = await pollTimes({ orders_ms: 3_000, balances_ms: 6_000 });
    expect([times.ListProfileOrders, times.ListProfileExecutions, times.ListQuoteExecutions]).toEqual([
      every(3_000),
      every(3_000),
      every(3_000),
    ]);
  });

  it('refuse an interval under 100 ms, naming the key, and a misspelt key', () => {
    for (const key of ['fills_ms', 'quote_executions_ms']) {
      let err: unknown;
      try {
        parseConfig({ streams: { [key]: 50 } });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems.map((p) => p.path)).toEqual([`streams.${key}`]);
    }
    expect(() => parseConfig({ streams: { fill_ms: 3_000 } })).toThrow(/unknown key\(s\) "fill_ms"/);
  });
});
