import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import { startSandbox, type SandboxHandle } from '../sandbox/index.js';
import { loggedClient, type LoggedClient } from '../../test/support/streams-harness.js';
import { RestVenue } from '../venue/index.js';

const open: Array<{ sandbox: SandboxHandle; client: LoggedClient }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.client.api.close();
    await o.sandbox.close();
  }
});

async function local() {
  const clock = new TestClock(Date.UTC(2025, 4, 1, 12));
  const sandbox = await startSandbox({ clock, seed: 5, funding: { USD: '1000' } });
  const client = loggedClient(clock, { apiUrl: sandbox.apiUrl, tokenUrl: sandbox.tokenUrl });
  open.push({ sandbox, client });
  return { sandbox, client, metadata: new RestVenue(client.api, 'default') };
}

describe("the venue's metadata over the local sandbox (RestVenue)", () => {
  it('reads the internal-transfer limits with their asset, remaining and period (List Transfer Limits)', async () => {
    const s = await local();
    const rows = await s.metadata.transferLimits();
    expect(rows).toEqual([
      { limitAsset: 'USD', limit: '1000000', remaining: '1000000', periodSeconds: '0' },
      { limitAsset: 'USD', limit: '5000000', remaining: '5000000', periodSeconds: '86400' },
    ]);
    expect(s.client.count('ListTransferLimits')).toBe(1);
  });

  it('reads every trading market with its tick (ListMarkets)', async () => {
    const s = await local();
    const markets = (await s.metadata.instruments()).map((i) => ({ market: i.market, tick: i.tick.toFixed() }));
    expect(markets).toContainEqual({ market: 'BTCUSD', tick: '0.01' });
    expect(markets).toContainEqual({ market: 'MATICUSD', tick: '0.0001' });
    expect(markets.length).toBeGreaterThanOrEqual(14);
  });
});
