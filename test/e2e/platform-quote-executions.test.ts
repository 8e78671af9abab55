import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type PriceSeriesLike } from '../../src/sim/prices/price-data.js';
import { type PlatformSandbox, refusal, startPlatformSandbox } from '../support/sandbox-platform.js';
import { T0 } from '../support/sandbox-fixture.js';

/**
 * BTCUSD at 60000 until +10 s, 62999 (+4.998 %) from +11 s to +20 s, 63001 (+5.002 %) from +21 s:
 * either side of the sandbox's default rejectMove of 5 %, well inside a quote's 30 s validity.
 */
function jumpSeries(): PriceSeriesLike {
  return {
    source: 'test-jump',
    length: 6,
    times: new Float64Array([0, 10_000, 11_000, 20_000, 21_000, 7_200_000]),
    prices: new Float64Array([60_000, 60_000, 62_999, 62_999, 63_001, 63_001]),
  };
}

describe('sandbox quote executions when the market moves through the typed client', () => {
  let sb: PlatformSandbox;
  beforeEach(async () => {
    sb = await startPlatformSandbox({ funding: { USD: '10000' }, sim: { replay: { BTCUSD: { series: jumpSeries() } } } });
  });
  afterEach(() => sb.close());

  it('settles an execution after a move just within the limit and refuses one beyond it with 403 rejected, moving no balance', async () => {
    const { api } = sb;
    const quote = (await api.listQuotes(['BTCUSD'])).items.find((q) => q.side === 'BUY')!;
    expect(quote.price).toBe('60060');
    sb.advance(15_000);
    const ok = await api.createQuoteExecution('default', { quote_id: quote.id, quote_amount: '100.00', ref_id: 'qe-within' });
    expect(ok).toMatchObject({ status: 'CREATED', price: '60060', quote_amount: '100.00' });
    sb.advance(1_000);
    expect(await api.getQuoteExecution('default', ok.id)).toMatchObject({
      status: 'SETTLED',
      settled_at: new Date(T0 + 16_000).toISOString(),
    });
    const usd = await api.getProfileBalance('default', 'USD');
    const btc = await api.getProfileBalance('default', 'BTC');
    expect([usd.available, usd.trading, btc.available]).toEqual(['9900', '0', ok.base_amount]);

    sb.advance(9_000);
    expect(sb.clock.now()).toBeLessThan(Date.parse(quote.expires_at));
    const late = await refusal(api.createQuoteExecution('default', { quote_id: quote.id, quote_amount: '100.00', ref_id: 'qe-beyond' }));
    expect([late.status, late.slug, late.detail]).toEqual([
      403,
      'rejected',
      expect.stringMatching(/BTCUSD market moved 5\.00 % since quote .*take a fresh one/),
    ]);
    expect(await api.getProfileBalance('default', 'USD')).toEqual(usd);
    expect(await api.getProfileBalance('default', 'BTC')).toEqual(btc);
    expect((await api.listQuoteExecutions('default')).items.map((x) => x.id)).toEqual([ok.id]);

    const fresh = (await api.listQuotes(['BTCUSD'])).items.find((q) => q.side === 'BUY')!;
    expect((await api.createQuoteExecution('default', { quote_id: fresh.id, quote_amount: '100.00', ref_id: 'qe-fresh' })).status).toBe(
      'CREATED',
    );
  });
});
