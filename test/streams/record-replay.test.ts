import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import { LOCAL_CLIENT_SECRET } from '../../src/config/index.js';
import type { MarketEvent } from '../../src/core/index.js';
import { SecretSet } from '../../src/log/index.js';
import type { AccountEvent } from '../../src/state/index.js';
import {
  JsonLinesRecorder,
  PollingMarketSource,
  RecordedMarketSource,
  type MarketSource,
  type MarketSubscription,
  type VenueFill,
} from '../../src/venue/index.js';
import { DROP_AT, T0, startTestSandbox } from '../support/sandbox-fixture.js';
import { loggedClient, quiet, stepClock, until } from '../support/streams-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-streams-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SUBS: readonly MarketSubscription[] = [
  { market: 'BTCUSD', kinds: new Set(['price', 'ticker', 'book', 'quote'] as const) },
  { market: 'ETHUSD', kinds: new Set(['price'] as const) },
];

interface Seen {
  readonly events: MarketEvent[];
  readonly account: AccountEvent[];
  readonly fills: VenueFill[];
}

function collect(source: MarketSource): Seen {
  const seen: Seen = { events: [], account: [], fills: [] };
  source.events$.subscribe((e) => seen.events.push(e));
  source.account$.subscribe((e) => seen.account.push(e));
  source.fills$?.subscribe((f) => seen.fills.push(...f));
  return seen;
}

/** A live run against the sandbox with recording on: warm-up, market data, an order that fills. */
async function recordRun(path: string): Promise<{ warm: readonly MarketEvent[]; seen: Seen }> {
  const sb = await startTestSandbox();
  const secrets = new SecretSet();
  secrets.add(LOCAL_CLIENT_SECRET);
  const client = loggedClient(sb.clock, { apiUrl: sb.handle.apiUrl, tokenUrl: sb.handle.tokenUrl, secrets });
  const source = new PollingMarketSource({
    api: client.api,
    clock: sb.clock,
    profileId: sb.handle.sim.profiles.defaultId,
    recorder: new JsonLinesRecorder(path, { secrets }),
  });
  const seen = collect(source);
  const warm = await source.warmUp(['BTCUSD', 'ETHUSD'], 20);
  source.start(SUBS);
  const profileId = sb.handle.sim.profiles.defaultId;
  sb.handle.sim.placeOrder({ profileId, side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '59500', baseAmount: '0.5', refId: 'rec-1' });
  await stepClock(sb.clock, DROP_AT - T0 + 4_000, 500, quiet(source, client));
  await source.stop();
  await client.api.close();
  await sb.close();
  return { warm, seen };
}

describe('recording and replay', () => {
  const path = join(dir, 'run.jsonl');
  let recorded: { warm: readonly MarketEvent[]; seen: Seen } | undefined;

  it('records every response of a live run with its receive time, without secrets', async () => {
    recorded = await recordRun(path);
    const text = readFileSync(path, 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { at?: number; stream?: string; format?: string });
    expect(lines[0]?.format).toBe('tradeloop-stream-recording');
    const streams = new Set(lines.slice(1).map((l) => l.stream));
    expect([...streams].sort()).toEqual([
      'balances',
      'book:BTCUSD',
      'fills',
      'history:BTCUSD',
      'history:ETHUSD',
      'open-orders',
      'prices',
      'quote-executions',
      'quotes',
      'ticker:BTCUSD',
    ]);
    expect(text).not.toContain(LOCAL_CLIENT_SECRET);
    expect(text).not.toMatch(/Bearer\s+[A-Za-z0-9]/);
    expect(recorded.seen.fills.length).toBeGreaterThan(0);
    expect(recorded.seen.events.some((e) => e.kind === 'quote')).toBe(true);
  });

  it('replays the recording through the same port as the same events, account states, fills and warm-up', async () => {
    const live = recorded!;
    const replay = new RecordedMarketSource({ path, clock: new TestClock(T0), paced: false });
    const seen = collect(replay);
    expect(await replay.warmUp(['BTCUSD', 'ETHUSD'], 20)).toEqual(live.warm);
    replay.start(SUBS);
    await replay.finished();
    expect(seen.events).toEqual(live.seen.events);
    expect(seen.account).toEqual(live.seen.account);
    expect(seen.fills).toEqual(live.seen.fills);
    expect(replay.skippedLines()).toBe(0);
    expect(replay.health().find((h) => h.stream === 'prices')?.lastSuccessAt).toBe(
      live.seen.events.filter((e) => e.kind === 'price').at(-1)?.at,
    );
  });

  it('paces a replay on its clock: nothing from the future is emitted before the clock gets there', async () => {
    const priceTimes = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as { at: number; stream: string })
      .filter((l) => l.stream === 'prices')
      .map((l) => l.at);
    const clock = new TestClock(T0);
    const replay = new RecordedMarketSource({ path, clock });
    const seen = collect(replay);
    replay.start([{ market: 'BTCUSD', kinds: new Set(['price'] as const) }]);
    const dueAt = (t: number): number => priceTimes.filter((at) => at <= t).length;
    await until(() => seen.events.length >= dueAt(T0), 'the prices recorded at the start', 200_000);
    for (let i = 0; i < 50; i++) await new Promise<void>((r) => setImmediate(r));
    expect(seen.events.length).toBe(dueAt(T0));
    expect(seen.events.every((e) => e.at <= T0)).toBe(true);
    await clock.advanceAsync(5_000, 100);
    await until(() => seen.events.length >= dueAt(T0 + 5_000), 'five more seconds of prices', 200_000);
    expect(seen.events.length).toBe(dueAt(T0 + 5_000));
    expect(seen.events.every((e) => e.at <= clock.now())).toBe(true);
    await replay.stop();
  });

  it('refuses a file that is not a recording, naming the field and the fix', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"hello":1}\n');
    const replay = new RecordedMarketSource({ path: bad, clock: new TestClock(0), paced: false });
    await expect(replay.warmUp(['BTCUSD'], 5)).rejects.toThrow(/^record: .* is not a tradeloop stream recording/);
    await expect(
      new RecordedMarketSource({ path: join(dir, 'missing.jsonl'), clock: new TestClock(0) }).warmUp(['BTCUSD'], 5),
    ).rejects.toThrow(/does not exist/);
  });
});
