import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '../../src/api/index.js';
import { InputError } from '../../src/core/errors.js';
import { type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { T0 } from '../support/sandbox-fixture.js';
import { type PlatformSandbox, startPlatformSandbox } from '../support/sandbox-platform.js';
import { firstLine } from '../support/child-lines.js';

const DELAY_MS = 2000;
/** The sandbox options that set the order-entry delay (`sim.rules.submitDelayMs`). */
const DELAYED = { sim: { rules: { submitDelayMs: DELAY_MS } } } satisfies Partial<SandboxOptions>;

/** Statuses and ids of the default profile's orders with one status, through ListProfileOrders. */
async function idsWithStatus(api: ApiClient, status: 'SUBMITTED' | 'OPEN'): Promise<string[]> {
  return (await api.listProfileOrders('default', { status })).items.map((o) => o.id!);
}

describe('sandbox order-entry delay (startSandbox sim.rules.submitDelayMs) through the project client', () => {
  const open: Array<{ sb: PlatformSandbox; api: ApiClient }> = [];
  let dir: string | undefined;

  async function start(options: Partial<SandboxOptions>): Promise<{ sb: PlatformSandbox; api: ApiClient }> {
    const sb = await startPlatformSandbox(options);
    const pair = { sb, api: sb.api };
    open.push(pair);
    return pair;
  }

  /** Closes the sandbox and its clients. */
  async function stop(pair: { sb: PlatformSandbox; api: ApiClient }): Promise<void> {
    open.splice(open.indexOf(pair), 1);
    await pair.sb.close();
  }

  afterEach(async () => {
    for (const pair of [...open]) await stop(pair);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('answers CreateOrder SUBMITTED, shows it SUBMITTED until the delay passes, then OPEN or FILLED', async () => {
    const { sb, api } = await start(DELAYED);
    const resting = await api.createOrder('default', {
      side: 'BUY',
      market: 'BTCUSD',
      type: 'LIMIT',
      price: '59000',
      base_amount: '0.1',
      ref_id: 'rest-1',
    });
    const market = await api.createOrder('default', {
      side: 'BUY',
      market: 'BTCUSD',
      type: 'MARKET',
      quote_amount: '6000',
      ref_id: 'mkt-1',
    });
    expect([resting.status, market.status]).toEqual(['SUBMITTED', 'SUBMITTED']);
    expect(market.amount_filled).toBe('0');
    expect((await api.getProfileBalance('default', 'USD')).trading).toBe('11905.9');
    sb.advance(DELAY_MS - 1);
    expect((await api.getOrder('default', resting.id!)).status).toBe('SUBMITTED');
    expect(await idsWithStatus(api, 'SUBMITTED')).toEqual([market.id, resting.id]);
    expect(await idsWithStatus(api, 'OPEN')).toEqual([]);
    expect((await api.listProfileExecutions('default', {})).items).toEqual([]);
    sb.advance(1);
    expect((await api.getOrder('default', resting.id!)).status).toBe('OPEN');
    const filled = await api.getOrder('default', market.id!);
    expect(filled.status).toBe('FILLED');
    const fills = (await api.listProfileExecutions('default', { order_id: market.id! })).items;
    expect(fills.length).toBeGreaterThan(0);
    expect(fills.every((e) => e.executed_at === new Date(T0 + DELAY_MS).toISOString())).toBe(true);
    expect(await idsWithStatus(api, 'OPEN')).toEqual([resting.id]);
  });

  it('cancels a SUBMITTED order: acknowledged, then CANCELLED without a fill, funds released', async () => {
    const { sb, api } = await start(DELAYED);
    const order = await api.createOrder('default', {
      side: 'BUY',
      market: 'BTCUSD',
      type: 'MARKET',
      quote_amount: '6000',
      ref_id: 'mkt-c',
    });
    await api.cancelOrder('default', order.id!);
    sb.advance(DELAY_MS * 3);
    const after = await api.getOrder('default', order.id!);
    expect([after.status, after.amount_filled]).toEqual(['CANCELLED', '0']);
    expect((await api.listProfileExecutions('default', { order_id: order.id! })).items).toEqual([]);
    expect(await api.getProfileBalance('default', 'USD')).toMatchObject({ available: '2000000', trading: '0' });
  });

  it('keeps a SUBMITTED order in the state file and enters it after the restart', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-entry-'));
    const stateFile = join(dir, 'state.json');
    const first = await start({ ...DELAYED, stateFile });
    const order = await first.api.createOrder('default', {
      side: 'BUY',
      market: 'BTCUSD',
      type: 'LIMIT',
      price: '59000',
      base_amount: '0.1',
      ref_id: 'rest-s',
    });
    expect(order.status).toBe('SUBMITTED');
    await stop(first);
    const second = await start({ ...DELAYED, stateFile });
    expect(second.sb.handle.restored).toBe(true);
    expect((await second.api.getOrder('default', order.id!)).status).toBe('SUBMITTED');
    second.sb.advance(DELAY_MS);
    expect((await second.api.getOrder('default', order.id!)).status).toBe('OPEN');
  });

  it('keeps entering orders at once without the option', async () => {
    const { api } = await start({});
    const order = await api.createOrder('default', { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '59000', base_amount: '0.1' });
    expect(order.status).toBe('OPEN');
  });

  it('refuses a negative delay before listening, naming the option', async () => {
    await expect(startSandbox({ sim: { rules: { submitDelayMs: -1 } } })).rejects.toThrow(InputError);
    await expect(startSandbox({ sim: { rules: { submitDelayMs: -1 } } })).rejects.toThrow(/submitDelayMs/);
  });
});

describe('tradeloop sandbox --config with local.submit_delay_ms', () => {
  it('answers CreateOrder SUBMITTED from the command line sandbox too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-entry-cli-'));
    const config = join(dir, 'sandbox.yaml');
    writeFileSync(config, 'local:\n  submit_delay_ms: 600000\n');
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('../../bin/tradeloop.js', import.meta.url)), 'sandbox', '--port', '0', '--config', config],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const url = (await firstLine(child)).replace('sandbox listening on ', '');
      const api = createApiClient({
        apiUrl: `${url}/v2`,
        tokenUrl: `${url}/oauth2/token`,
        clientId: 'tradeloop-local',
        clientSecret: 'tradeloop-local-secret',
      });
      try {
        const order = await api.createOrder('default', {
          side: 'BUY',
          market: 'BTCUSD',
          type: 'LIMIT',
          price: '1000',
          base_amount: '0.01',
          ref_id: 'cli-entry-1',
        });
        expect(order.status).toBe('SUBMITTED');
      } finally {
        await api.close();
      }
    } finally {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
