import { describe, expect, it } from 'vitest';
import type { MarketEvent } from '../../src/core/index.js';
import { PollingMarketSource } from '../../src/venue/index.js';
import { startTestSandbox } from '../support/sandbox-fixture.js';
import { loggedClient, quiet, stepClock } from '../support/streams-harness.js';

describe('PollingMarketSource against the sandbox’s fault injection', () => {
  it('rides through an injected 5xx, 429, dropped connection and truncated body without ending a stream', async () => {
    const sb = await startTestSandbox({ faults: { rules: [], retryAfterSec: 2 } });
    const errors: string[] = [];
    const client = loggedClient(sb.clock, {
      apiUrl: sb.handle.apiUrl,
      tokenUrl: sb.handle.tokenUrl,
      onResponse: (e) => e.error && errors.push(e.error),
    });
    const source = new PollingMarketSource({
      api: client.api,
      clock: sb.clock,
      intervals: { tickerMs: 1_000, pricesMs: 1_000 },
      backoff: { baseMs: 500, maxMs: 4_000 },
    });
    const events: MarketEvent[] = [];
    source.events$.subscribe((e) => events.push(e));
    try {
      for (const mode of ['error5xx', 'error429', 'drop', 'truncate'] as const)
        sb.handle.faults.add({ mode, target: 'GetTicker', count: 1 });
      source.start([{ market: 'BTCUSD', kinds: new Set(['ticker', 'price'] as const) }]);
      await stepClock(sb.clock, 30_000, 250, quiet(source, client));
      expect(errors).toHaveLength(4);
      expect(errors).toContain('SERVER_ERROR');
      expect(errors).toContain('RATE_LIMITED');
      const ticker = source.health().find((h) => h.stream === 'ticker:BTCUSD')!;
      expect(ticker.consecutiveErrors).toBe(0);
      expect(ticker.lastSuccessAt).toBeGreaterThan(sb.clock.now() - 1_000);
      expect(events.filter((e) => e.kind === 'ticker').length).toBeGreaterThan(15);
      const prices = events.filter((e) => e.kind === 'price').map((e) => e.at);
      expect(prices.length).toBeGreaterThanOrEqual(25);
    } finally {
      await source.stop();
      await client.api.close();
      await sb.close();
    }
  });
});
