import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiClient, RateLimitedError, ServerError, TimeoutError, createApiClient } from '../../src/api/index.js';
import { type ResponseEvent } from '../../src/api/http/executor.js';
import { TestClock } from '../../src/clock/test-clock.js';
import { type SandboxOptions } from '../../src/sandbox/index.js';
import { tradeloop } from '../support/reliability-procs.js';
import { T0, type TestSandbox, startTestSandbox } from '../support/sandbox-fixture.js';
import { SandboxHttp } from '../support/sandbox-http.js';
import { firstLines } from '../support/child-lines.js';

/** What the client saw: one entry per attempt, "operation status|error". */
type Seen = string[];

describe('sandbox fault injection, observed by the project client', () => {
  let sb: TestSandbox | undefined;
  let api: ApiClient | undefined;
  afterEach(async () => {
    await api?.close();
    await sb?.close();
    api = sb = undefined;
  });

  async function setUp(
    options: Partial<SandboxOptions> = {},
    client: { maxRetries?: number; headersTimeoutMs?: number } = {},
  ): Promise<{ sb: TestSandbox; api: ApiClient; seen: Seen }> {
    sb = await startTestSandbox(options);
    const seen: Seen = [];
    const onResponse = (e: ResponseEvent): void => void seen.push(`${e.operation} ${e.status ?? e.error ?? '?'}`);
    api = createApiClient({
      apiUrl: sb.handle.apiUrl,
      tokenUrl: sb.handle.tokenUrl,
      clientId: 'tradeloop-local',
      clientSecret: 'tradeloop-local-secret',
      baseBackoffMs: 1,
      maxBackoffMs: 4,
      onResponse,
      ...client,
    });
    return { sb, api, seen };
  }

  it('5xx: the client sees 503s, retries reads with backoff, and gives up with a ServerError when told to', async () => {
    const { sb, api, seen } = await setUp();
    sb.handle.faults.add({ mode: 'error5xx', target: 'GetTicker', count: 2 });
    expect((await api.getTicker('BTCUSD')).market).toBe('BTCUSD');
    expect(seen).toEqual(['GetTicker 503', 'GetTicker 503', 'GetTicker 200']);
    sb.handle.faults.add({ mode: 'error5xx', target: 'GetOrderBook', count: 1 });
    const strict = createApiClient({ apiUrl: sb.handle.apiUrl, maxRetries: 0 });
    await expect(strict.getOrderBook('BTCUSD')).rejects.toMatchObject({ constructor: ServerError, status: 503 });
    await strict.close();
  });

  it('429: the client gets a RateLimitedError carrying the Retry-After', async () => {
    const { sb, api } = await setUp(
      { faults: { rules: [{ mode: 'error429', target: '/v2/markets', count: 1 }], retryAfterSec: 3 } },
      { maxRetries: 0 },
    );
    const err = await api.getOrderBook('BTCUSD').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(3000);
    expect(sb.handle.faultSummary).toBe('error429@/v2/markets=next 1 (Retry-After 3s)');
  });

  it('dropped connections and truncated bodies fail the attempt; the client retries the read', async () => {
    const { sb, api, seen } = await setUp();
    sb.handle.faults.add({ mode: 'drop', target: 'GetTicker', count: 1 });
    sb.handle.faults.add({ mode: 'truncate', target: 'ListMarkets', count: 1 });
    expect((await api.getTicker('BTCUSD')).market).toBe('BTCUSD');
    expect((await api.listMarkets()).markets.length).toBeGreaterThan(0);
    expect(seen[0]).toMatch(/^GetTicker [A-Z_]+$/);
    expect(seen[1]).toBe('GetTicker 200');
    expect(seen[2]).toMatch(/^ListMarkets (\d+|[A-Z_]+)$/);
    expect(seen[2]).not.toBe('ListMarkets 200 ok');
    expect(seen.at(-1)).toBe('ListMarkets 200');
    expect(seen.filter((s) => s.startsWith('ListMarkets'))).toHaveLength(2);
    expect(sb.handle.faults.injected.map((f) => `${f.mode} ${f.operation}`)).toEqual(['drop GetTicker', 'truncate ListMarkets']);
  });

  it('latency: the answer waits for the wall clock, and a client with a shorter headers timeout times out', async () => {
    const wall = new TestClock(T0);
    const { sb, api } = await setUp(
      { wallClock: wall, faults: { rules: [{ mode: 'latency', target: 'GetTicker', latencyMs: 200 }] } },
      { maxRetries: 0, headersTimeoutMs: 30_000 },
    );
    let done = false;
    const pending = api.getTicker('BTCUSD').then((t) => ((done = true), t));
    while (sb.handle.faults.injected.length === 0) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    wall.advance(200);
    expect((await pending).market).toBe('BTCUSD');
    const impatient = createApiClient({ apiUrl: sb.handle.apiUrl, maxRetries: 0, headersTimeoutMs: 50 });
    await expect(impatient.getTicker('BTCUSD')).rejects.toBeInstanceOf(TimeoutError);
    await impatient.close();
  });

  it('commit, then drop: CreateOrder is resolved by ref_id and exactly one order exists at the sandbox', async () => {
    const { sb, api, seen } = await setUp({ faults: { rules: [{ mode: 'commit-drop', target: 'CreateOrder', count: 1 }] } });
    // The real profile id: the client compares the path's profile_id with the record it recovers.
    const order = await api.createOrder(sb.handle.sim.profiles.defaultId, {
      side: 'BUY',
      market: 'BTCUSD',
      type: 'MARKET',
      quote_amount: '500',
      ref_id: 'lost-1',
    });
    expect(order.ref_id).toBe('lost-1');
    expect(seen[0]).toMatch(/^CreateOrder [A-Z_]+$/);
    expect(seen).toContain('ListOrders 200');
    const truth = sb.handle.truth();
    expect(truth.orders.filter((o) => o.ref_id === 'lost-1')).toHaveLength(1);
    expect(truth.orders.find((o) => o.ref_id === 'lost-1')?.id).toBe(order.id);
    expect(truth.injected_faults.map((f) => f.mode)).toEqual(['commit-drop']);
  });

  it('commit, then drop: internal transfers resolve through ListTransfers, quote executions through the 409', async () => {
    const { sb, api } = await setUp({
      faults: {
        rules: [
          { mode: 'commit-drop', target: 'CreateInternalTransfer', count: 1 },
          { mode: 'commit-drop', target: 'CreateQuoteExecution', count: 1 },
        ],
      },
    });
    const bot = await api.createProfile({ nickname: 'bot' });
    const t = await api.createInternalTransfer({
      from_profile_id: 'default',
      to_profile_id: bot.id,
      asset: 'USD',
      amount: '10',
      ref_id: 'move-lost',
    });
    expect([t.ref_id, t.type]).toEqual(['move-lost', 'INTERNAL_TRANSFER_DEBIT']);
    const quote = (await api.listQuotes(['BTCUSD'])).items.find((q) => q.side === 'BUY')!;
    const x = await api.createQuoteExecution(sb.handle.sim.profiles.defaultId, {
      quote_id: quote.id,
      quote_amount: '20.00',
      ref_id: 'qe-lost',
    });
    expect(x.ref_id).toBe('qe-lost');
    const truth = sb.handle.truth();
    expect(truth.transfers.filter((r) => r.ref_id === 'move-lost' && r.type === 'INTERNAL_TRANSFER_DEBIT')).toHaveLength(1);
    expect(truth.quote_executions.filter((r) => r.ref_id === 'qe-lost')).toHaveLength(1);
    expect(sb.handle.faults.injected).toHaveLength(2);
  });

  it('rate limits: a budget exceeded answers 429 with Retry-After, blocks every path for the penalty, then recovers', async () => {
    const wall = new TestClock(T0);
    const { sb, api } = await setUp(
      { wallClock: wall, rateLimits: { windowMs: 10_000, penaltyMs: 30_000, scale: 0.1 } },
      { maxRetries: 0 },
    );
    for (let i = 0; i < 10; i++) expect((await sb.http.get('/v2/markets/BTCUSD/order-book')).status).toBe(200);
    const refused = await sb.http.send('GET', '/v2/markets/BTCUSD/order-book', {});
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ status: 429, title: 'Too Many Requests', meta: { budget: 'order-book' } });
    const blocked = await api.getTicker('BTCUSD').catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(RateLimitedError);
    expect((blocked as RateLimitedError).retryAfterMs).toBe(30_000);
    wall.advance(30_000);
    expect((await sb.http.get('/v2/markets/BTCUSD/order-book')).status).toBe(200);
  });

  it('serves the truth over loopback HTTP only when enabled', async () => {
    const { sb } = await setUp({ truthApi: true });
    const token = await sb.http.token();
    await sb.http.post(
      '/v2/profiles/default/orders',
      { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '100', ref_id: 'seen' },
      token,
    );
    const truth = await sb.http.get('/__sandbox/truth');
    expect(truth.status).toBe(200);
    expect(truth.body.orders.map((o: { ref_id: string }) => o.ref_id)).toEqual(['seen']);
    expect(truth.body.profiles[0].balances.length).toBeGreaterThan(0);
    const plain = await startTestSandbox();
    try {
      expect((await plain.http.get('/__sandbox/truth')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('faults set in the config file (local.faults), tradeloop sandbox --config FILE', () => {
  let child: ChildProcess | undefined;
  let dir: string | undefined;
  afterEach(() => {
    if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    child = dir = undefined;
  });

  const configFile = (yaml: string): string => {
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-faults-config-'));
    const file = join(dir, 'sandbox.yaml');
    writeFileSync(file, yaml);
    return file;
  };

  it('prints the active faults at start and injects them into the targeted operations only', async () => {
    const file = configFile(
      [
        'environment: local',
        'log:',
        '  level: warn',
        'local:',
        '  truth_api: true',
        '  faults: "error5xx@GetTicker=1,error429@/v2/profiles=1,latency@ListMarkets=400ms,retry-after=2s,seed=9"',
        '',
      ].join('\n'),
    );
    child = tradeloop(['sandbox', '--port', '0', '--config', file], tmpdir()).child;
    const lines = await firstLines(child, 3);
    expect(lines[0]).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.slice(1)).toEqual([
      'faults: error5xx@GetTicker=100%, error429@/v2/profiles=100% (Retry-After 2s), latency@ListMarkets=400ms',
      'rate limits: off',
    ]);
    const url = lines[0]!.slice('sandbox listening on '.length);
    const api = createApiClient({
      apiUrl: `${url}/v2`,
      tokenUrl: `${url}/oauth2/token`,
      clientId: 'tradeloop-local',
      clientSecret: 'tradeloop-local-secret',
      maxRetries: 0,
    });
    try {
      await expect(api.getTicker('BTCUSD')).rejects.toMatchObject({ constructor: ServerError, status: 503 });
      expect((await api.getOrderBook('BTCUSD')).market).toBe('BTCUSD');
      const limited = await api.listProfiles().catch((e: unknown) => e);
      expect(limited).toBeInstanceOf(RateLimitedError);
      expect((limited as RateLimitedError).retryAfterMs).toBe(2000);
      const started = Date.now();
      expect((await api.listMarkets()).markets.length).toBeGreaterThan(0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    } finally {
      await api.close();
    }
    const truth = await new SandboxHttp(url).get('/__sandbox/truth');
    expect(truth.body.fault_counts).toEqual({ error5xx: 1, error429: 1, latency: 1 });
  });

  /** Runs `tradeloop sandbox ARGS` until it exits; its exit code and stderr. */
  async function exitOf(args: string[]): Promise<{ code: number | string; err: string }> {
    const run = tradeloop(['sandbox', '--port', '0', ...args], tmpdir());
    child = run.child;
    return { code: await run.exit, err: run.err() };
  }

  it('exits with code 2 on a bad local.faults value, naming the config field, its file, the mode and the value', async () => {
    const file = configFile('local:\n  faults: "error5xx=lots"\n');
    const { code, err } = await exitOf(['--config', file]);
    expect(code).toBe(2);
    expect(err).toContain(`local.faults in ${file}: error5xx: expected a rate`);
    expect(err).toMatch(/error5xx: expected a rate .*got "lots"/);
    expect(err).not.toContain('--faults');
  });

  it('names --faults, not the config field, when the bad value came from the flag (over a good config value)', async () => {
    const file = configFile('local:\n  faults: "error5xx=0.1"\n');
    const { code, err } = await exitOf(['--config', file, '--faults', 'latency=fast']);
    expect(code).toBe(2);
    expect(err).toContain('--faults: latency: expected a duration such as 50ms or 2s, got "fast"');
    expect(err).not.toContain('local.faults');
  });

  it('names local.rate_limits in FILE for a bad config value and --rate-limits for a bad flag, exit 2', async () => {
    const file = configFile('local:\n  rate_limits: "fast"\n');
    const fromFile = await exitOf(['--config', file]);
    expect(fromFile.code).toBe(2);
    expect(fromFile.err).toContain(`local.rate_limits in ${file}: "fast" is not valid: use on, off, or window=10s`);
    expect(fromFile.err).not.toContain('--rate-limits');
    const fromFlag = await exitOf(['--config', file, '--rate-limits', 'window=10s,scale=0']);
    expect(fromFlag.code).toBe(2);
    expect(fromFlag.err).toContain('--rate-limits: scale: must be greater than 0, got 0');
    expect(fromFlag.err).not.toContain('local.rate_limits');
  });
});
