import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FakePlatform, problem } from '../support/fake-platform.js';

let fake: FakePlatform;
let dir: string;
let config: string;

beforeAll(async () => {
  fake = await FakePlatform.start({ clientId: 'tradeloop-local', clientSecret: 'tradeloop-local-secret' });
  fake.on('GET', '/markets/:market/order-book', (r) => ({ json: { market: r.params.market, asks: [{ price: '1', amount: '2' }], bids: [] } }), { public: true });
  fake.on('GET', '/transfer/transfers', (r) => {
    const cursor = r.query.get('page_cursor');
    return { json: cursor ? { items: [{ id: 't2' }], next_page_cursor: '' } : { items: [{ id: 't1' }], next_page_cursor: 'c2' } };
  });
  fake.on('POST', '/profiles/:profile_id/orders', () =>
    problem(403, 'Insufficient Funds', { type: 'https://developer.paxos.com/docs/v2/problems/insufficient-funds', detail: 'insufficient USD funds', meta: { asset: 'USD', needed: '306.25', available: '120.00' } }),
  );
  dir = mkdtempSync(join(tmpdir(), 'tradeloop-cli-api-'));
  config = join(dir, 'local.yaml');
  writeFileSync(config, 'environment: local\nlog:\n  level: warn\n');
});
afterAll(async () => {
  await fake.close();
});

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (s: string) => void): Writable =>
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        append(chunk.toString());
        cb();
      },
    });
  const code = await main(['api', ...args], { stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)), env });
  return { code, stdout, stderr };
}

const target = (): string[] => ['--config', config, '--base-url', fake.baseUrl];

describe('tradeloop api', () => {
  it('--list prints every operation with method, path and scope', async () => {
    const { code, stdout } = await run(['--list']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(96);
    expect(stdout).toMatch(/GetOrderBook\s+GET\s+\/markets\/\{market\}\/order-book\s+public/);
    expect(stdout).toMatch(/ListTransfers\s+GET\s+\/transfer\/transfers\s+transfer:read_transfer paged:cursor/);
  });

  it('calls an operation and prints only the JSON response on stdout', async () => {
    const { code, stdout } = await run(['GetOrderBook', '--market', 'BTCUSD', ...target()]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ market: 'BTCUSD', asks: [{ price: '1', amount: '2' }], bids: [] });
  });

  it('repeats array flags, keeps dotted names and follows every page with --all', async () => {
    fake.requests.length = 0;
    const { code, stdout, stderr } = await run(['ListTransfers', '--statuses', 'PENDING', '--statuses=FAILED', '--created_at.gte', '2024-01-01T00:00:00Z', '--all', ...target()]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([{ id: 't1' }, { id: 't2' }]);
    expect(fake.requests[0]!.rawQuery).toBe('statuses=PENDING&statuses=FAILED&created_at.gte=2024-01-01T00%3A00%3A00Z');
    expect(fake.tokenForms.at(-1)!.get('client_id')).toBe('tradeloop-local');
  });

  it('prints the problem JSON on stderr and exits 1 on an API error', async () => {
    const body = JSON.stringify({ side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '306.25', ref_id: 'cli-1' });
    const { code, stdout, stderr } = await run(['CreateOrder', '--profile_id', 'p1', '--body', body, ...target()]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const problemJson = JSON.parse(stderr.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(problemJson).toMatchObject({ title: 'Insufficient Funds', status: 403, meta: { needed: '306.25' } });
  });

  it('reads --body @file', async () => {
    const file = join(dir, 'order.json');
    writeFileSync(file, JSON.stringify({ side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '5' }));
    const { code } = await run(['CreateOrder', '--profile_id', 'p1', '--body', `@${file}`, ...target()]);
    expect(code).toBe(1);
    expect((fake.requests.at(-1)!.body as { quote_amount: string }).quote_amount).toBe('5');
  });

  it('exits 2 on bad flags, unknown operations, bad bodies and invalid values, without a request', async () => {
    fake.requests.length = 0;
    const cases: string[][] = [
      ['GetOrderBook', '--markt', 'BTCUSD', ...target()],
      ['NoSuchOp', ...target()],
      ['GetOrderBook', 'BTCUSD', ...target()],
      ['ListTransfers', '--limit', '5', '--limit', '6', ...target()],
      ['ListTransfers', '--limit', 'many', ...target()],
      ['CreateProfile', '--body', '{nope', ...target()],
      ['GetOrderBook', '--market', 'BTCUSD', '--all', ...target()],
      [],
    ];
    for (const args of cases) {
      const { code, stderr } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toMatch(/error/);
    }
    const unknown = await run(['GetOrderBook', '--markt', 'BTCUSD', ...target()]);
    expect(unknown.stderr).toContain('--market <value>');
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses the local credential for a non-loopback base URL (exit 2)', async () => {
    const { code, stderr } = await run(['GetOrderBook', '--market', 'BTCUSD', '--config', config, '--base-url', 'https://api.sandbox.paxos.com/v2']);
    expect(code).toBe(2);
    expect(stderr).toContain('local development credential');
  });

  it('shows help with examples', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--base-url');
    expect(stdout).toContain('tradeloop api GetOrderBook --market BTCUSD');
  });
});
