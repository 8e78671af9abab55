import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/index.js';
import { parseConfig } from '../../src/config/index.js';
import { buildLiveBundle } from '../../src/live/live-bundle.js';
import { silentLogger } from '../../src/log/index.js';
import { type ShapeMode } from '../../src/sandbox/index.js';
import { linesUntil } from '../support/child-lines.js';
import { type Proc, tradeloop } from '../support/reliability-procs.js';
import { SandboxHttp } from '../support/sandbox-http.js';
import { T0, startTestSandbox } from '../support/sandbox-fixture.js';

const iso = (ms: number): string => new Date(ms).toISOString();

describe.each<ShapeMode>(['schema', 'examples'])("tradeloop's client against the sandbox with shapes: %s", (shapes) => {
  it('decodes ListTickers, ListPrices and ListHistoricalPrices to the same values', async () => {
    const sb = await startTestSandbox({ shapes });
    const api = createApiClient({
      apiUrl: sb.handle.apiUrl,
      tokenUrl: sb.handle.tokenUrl,
      clientId: 'tradeloop-local',
      clientSecret: 'tradeloop-local-secret',
      clock: sb.clock,
      maxRetries: 0,
    });
    try {
      const raw = await sb.http.get('/v2/all-markets/ticker');
      expect(Array.isArray(raw.body)).toBe(shapes === 'examples');
      const tickers = await api.listTickers();
      expect(tickers).toHaveLength(10);
      expect(tickers.find((t) => t.market === 'BTCUSD')?.last_day?.high).toMatch(/^\d+(\.\d+)?$/);
      const prices = await api.listPrices(['BTCUSD', 'ETHUSD']);
      expect(prices.items.map((p) => p.market)).toEqual(['BTCUSD', 'ETHUSD']);
      expect(prices.items[0]!.current_price).toBe('60000.00');
      const hp = await api.listHistoricalPrices('BTCUSD', {
        increment: 'ONE_HOUR',
        'range.begin': iso(T0 - 5 * 3_600_000),
        'range.end': iso(T0),
      });
      expect(hp.total_count).toBe(5);
      expect(hp.items).toHaveLength(5);
      expect(hp.items.every((p) => Number(p.average_price) > 0)).toBe(true);
    } finally {
      await api.close();
      await sb.close();
    }
  });
});

describe('the fiat account list under each shape', () => {
  it('withholds the owner and address as {} and the country (schema) or as null (examples), keys kept', async () => {
    for (const [shapes, owner, address] of [
      ['schema', {}, { country: 'USA' }],
      ['examples', { person_details: null }, null],
    ] as const) {
      const sb = await startTestSandbox({ shapes });
      try {
        const token = await sb.http.token();
        const addr = { country: 'USA', address1: '1 Main St', city: 'New York', province: 'NY' };
        await sb.http.post(
          '/v2/transfer/fiat-accounts',
          {
            fiat_account_owner: { person_details: { first_name: 'Ada', last_name: 'Lovelace' } },
            fiat_network_instructions: {
              wire: {
                account_number: '12345678',
                fiat_account_owner_address: addr,
                routing_details: { routing_number_type: 'ABA', routing_number: '021000021', bank_name: 'First Bank', bank_address: addr },
              },
            },
          },
          token,
        );
        const [item] = (await sb.http.get('/v2/transfer/fiat-accounts', token)).body.items;
        expect(
          [
            item.fiat_account_owner,
            item.fiat_network_instructions.wire.fiat_account_owner_address,
            item.fiat_network_instructions.wire.account_number,
          ],
          shapes,
        ).toEqual([owner, address, 'XXXX5678']);
        expect(item.fiat_network_instructions.wire.routing_details.bank_address, shapes).toEqual(shapes === 'examples' ? null : addr);
      } finally {
        await sb.close();
      }
    }
  });
});

describe('the embedded sandbox of tradeloop run', () => {
  it('answers the shapes of local.shapes', async () => {
    const journal = join(mkdtempSync(join(tmpdir(), 'tradeloop-shapes-run-')), 'journal.sqlite');
    const bundle = await buildLiveBundle(
      parseConfig({ environment: 'local', local: { port: 0, shapes: 'examples' }, journal: { path: journal } }),
      {},
      { log: silentLogger() },
    );
    try {
      const tickers = await fetch(`${bundle.sandbox!.apiUrl}/all-markets/ticker`);
      expect(Array.isArray(await tickers.json())).toBe(true);
    } finally {
      await bundle.close();
      rmSync(join(journal, '..'), { recursive: true, force: true });
    }
  });
});

describe('tradeloop sandbox --shapes and local.shapes', () => {
  let proc: Proc | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    if (proc !== undefined && proc.child.exitCode === null) {
      proc.child.kill('SIGKILL');
      await proc.exit;
    }
    proc = undefined;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const tickersOf = async (line: string): Promise<unknown> =>
    (await new SandboxHttp(line.slice('sandbox listening on '.length)).get('/v2/all-markets/ticker')).body;

  it("answers the examples' shapes with --shapes examples and says so at start", async () => {
    proc = tradeloop(['sandbox', '--port', '0', '--shapes', 'examples'], tmpdir(), { NO_COLOR: '1' });
    const lines = await linesUntil(proc.child, /^shapes: /);
    expect(lines.at(-1)).toBe("shapes: examples (the spec's examples, not its schemas)");
    expect(Array.isArray(await tickersOf(lines[0]!))).toBe(true);
  });

  it('takes local.shapes from the config file, and the flag wins over it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-shapes-'));
    const file = join(dir, 'sandbox.yaml');
    writeFileSync(file, 'local:\n  shapes: examples\n');
    proc = tradeloop(['sandbox', '--port', '0', '--config', file], tmpdir(), { NO_COLOR: '1' });
    const lines = await linesUntil(proc.child, /^shapes: /);
    expect(Array.isArray(await tickersOf(lines[0]!))).toBe(true);
    proc.child.kill('SIGTERM');
    await proc.exit;
    proc = tradeloop(['sandbox', '--port', '0', '--config', file, '--shapes', 'schema'], tmpdir(), { NO_COLOR: '1' });
    const again = await linesUntil(proc.child, /^rate limits: /);
    expect(await tickersOf(again[0]!)).toMatchObject({ tickers: expect.any(Array) });
  });

  it('refuses an unknown mode, naming the flag and the choices (exit 2)', async () => {
    proc = tradeloop(['sandbox', '--port', '0', '--shapes', 'array'], tmpdir(), { NO_COLOR: '1' });
    expect(await proc.exit).toBe(2);
    expect(proc.err()).toContain('--shapes: expected schema (the OpenAPI schemas) or examples');
  });
});
