/**
 * The divergence report's parts on hand-built decisions: pairing by each strategy's sequence and
 * time survives one extra or missing intent; a difference's cost is computed by hand (exact
 * decimals) and its cause is the fill model, latency, a data gap or a one-sided denial, later
 * differences following the first; and bad input (no header, an unknown strategy, a changed plugin,
 * a journal that is missing or not a journal, a bad --max-drift) is refused with exit 2, naming why.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareStrategy, contribution, type CompareContext } from '../../backtest/divergence/compare.js';
import type { DecisionRecord, FillRecord } from '../../backtest/divergence/journal.js';
import { alignDecisions } from '../../backtest/divergence/match.js';
import { D, type Intent } from '../../src/core/index.js';
import { JOURNAL_DDL } from '../../src/exec/journal-schema.js';
import { runCli } from '../cli/cli-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-divergence-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2024, 0, 1);

function fill(at: number, price: string, amount: string, fee = '0'): FillRecord {
  return { at, price: new D(price), amount: new D(amount), fee: new D(fee), feeAsset: 'USD' };
}

function decision(
  seq: number,
  at: number,
  side: 'BUY' | 'SELL',
  o: { fills?: FillRecord[]; deny?: string; type?: 'MARKET' | 'LIMIT'; amount?: string; ref?: string } = {},
): DecisionRecord {
  const intent: Intent = {
    kind: 'place-order',
    intentId: o.ref ?? `x-${seq}`,
    strategy: 's',
    market: 'BTCUSD',
    side,
    type: o.type ?? 'MARKET',
    baseAmount: o.amount ?? '1',
    ...(o.type === 'LIMIT' && { price: '100' }),
  };
  return {
    refId: intent.intentId,
    strategy: 's',
    seq,
    at,
    kind: 'place-order',
    market: 'BTCUSD',
    side,
    intent,
    decision: o.deny === undefined ? 'approve' : 'deny',
    ...(o.deny !== undefined && { denialCode: o.deny }),
    fills: o.fills ?? [],
  };
}

const CTX: CompareContext = { market: 'BTCUSD', mark: new D('105'), toleranceMs: 1000, gaps: [], balancesAt: [], liveFillTimes: [] };

describe('pairing decisions', () => {
  const sides = ['BUY', 'SELL', 'BUY', 'SELL', 'BUY'] as const;
  const live = sides.map((s, i) => decision(i + 1, T0 + i * 10_000, s));

  it('pairs the n-th intent of a strategy with the n-th when both runs made the same ones', () => {
    const pairs = alignDecisions(
      live,
      live.map((d) => ({ ...d, at: d.at + 40 })),
      1000,
    );
    expect(pairs.map((p) => [p.live?.seq, p.replay?.seq])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
    ]);
  });

  it('one extra intent in the replay does not misalign everything after it', () => {
    const replay = [live[0]!, live[1]!, decision(3, T0 + 20_000, 'SELL'), ...live.slice(2).map((d) => ({ ...d, seq: d.seq + 1 }))];
    const pairs = alignDecisions(live, replay, 1000);
    expect(pairs.map((p) => [p.live?.seq, p.replay?.seq])).toEqual([
      [1, 1],
      [2, 2],
      [undefined, 3],
      [3, 4],
      [4, 5],
      [5, 6],
    ]);
  });

  it('one intent missing from the replay shows as live only, at its place', () => {
    const replay = [live[0]!, ...live.slice(2).map((d) => ({ ...d, seq: d.seq - 1 }))];
    const pairs = alignDecisions(live, replay, 1000);
    expect(pairs.map((p) => [p.live?.seq, p.replay?.seq])).toEqual([
      [1, 1],
      [2, undefined],
      [3, 2],
      [4, 3],
      [5, 4],
    ]);
  });

  it('an intent at the same moment but of another side pairs with its own partner a step later', () => {
    const replay = [decision(1, T0 + 5, 'SELL'), decision(2, T0 + 10, 'BUY'), ...live.slice(1).map((d) => ({ ...d, seq: d.seq + 1 }))];
    const pairs = alignDecisions(live, replay, 1000);
    expect(pairs.map((p) => [p.live?.seq, p.replay?.seq])).toEqual([
      [undefined, 1],
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 5],
      [5, 6],
    ]);
  });
});

describe('comparing paired decisions', () => {
  it('costs a fill difference by hand, in exact decimals, and puts it down to the fill model', () => {
    // live bought 2 @ 101 (fee 0.202), the replay 2 @ 100 (fee 0.2); marked at 105
    const live = decision(1, T0, 'BUY', { fills: [fill(T0 + 10, '101', '2', '0.202')] });
    const replay = decision(1, T0, 'BUY', { fills: [fill(T0, '100', '2', '0.2')] });
    expect(contribution(live, 'BTCUSD', CTX.mark).toFixed()).toBe('7.798'); // -202 - 0.202 + 210
    const [d] = compareStrategy('s', [{ live, replay }], CTX, new Map());
    expect(d).toMatchObject({ kind: 'fill', cause: 'fill-model', inherited: false, quote: 'USD' });
    expect(d!.cost.toFixed()).toBe('-2.002');
    expect(d!.detail).toBe('fills differ: average price live 101.00, replay 100.00; fee live 0.202 USD, replay 0.2 USD');
  });

  it('later intent differences follow the first difference and take its cause; the costs add up to the P&L gap', () => {
    const l = [
      decision(1, T0, 'BUY', { fills: [fill(T0, '101', '1')] }),
      decision(2, T0 + 5000, 'SELL', { fills: [fill(T0 + 5000, '110', '1')] }),
    ];
    const r = [decision(1, T0, 'BUY', { fills: [fill(T0, '100', '1')] })];
    const diffs = compareStrategy('s', alignDecisions(l, r, 1000), CTX, new Map());
    expect(diffs.map((d) => [d.kind, d.cause, d.inherited])).toEqual([
      ['fill', 'fill-model', false],
      ['intent-only-live', 'fill-model', true],
    ]);
    const gap = [...l]
      .reduce((s, d) => s.plus(contribution(d, 'BTCUSD', CTX.mark)), new D(0))
      .minus(contribution(r[0], 'BTCUSD', CTX.mark));
    expect(diffs.reduce((s, d) => s.plus(d.cost), new D(0)).toFixed()).toBe(gap.toFixed());
    expect(gap.toFixed()).toBe('4'); // live: -101 + 110 = 9 ; replay: -100 + 105 = 5
  });

  it('tells latency (a market order filled late on one side), a data gap, and a denial only one side saw', () => {
    const late = compareStrategy(
      's',
      [
        {
          live: decision(1, T0, 'BUY', { fills: [fill(T0 + 3000, '100', '1')] }),
          replay: decision(1, T0, 'BUY', { fills: [fill(T0, '100', '1')] }),
        },
      ],
      CTX,
      new Map(),
    );
    expect(late[0]).toMatchObject({ kind: 'fill', cause: 'latency' });
    expect(late[0]!.detail).toContain('first fill live 2024-01-01T00:00:03.000Z, replay 2024-01-01T00:00:00.000Z');
    const gapped = compareStrategy(
      's',
      [{ live: decision(1, T0 + 60_000, 'BUY') }],
      { ...CTX, gaps: [{ from: T0 + 30_000, to: T0 + 59_500 }] },
      new Map(),
    );
    expect(gapped[0]).toMatchObject({ kind: 'intent-only-live', cause: 'data-gap' });
    const ended = compareStrategy(
      's',
      [{ live: decision(1, T0, 'BUY', { fills: [fill(T0, '100', '1')] }), replay: decision(1, T0, 'BUY') }],
      { ...CTX, latencyMs: 500, recordingEnd: T0 + 400 },
      new Map(),
    );
    expect(ended[0]).toMatchObject({ kind: 'fill', cause: 'data-gap' });
    const denied = compareStrategy(
      's',
      [{ live: decision(1, T0, 'BUY', { deny: 'MAX_NOTIONAL' }), replay: decision(1, T0, 'BUY', { fills: [fill(T0, '100', '1')] }) }],
      CTX,
      new Map(),
    );
    expect(denied[0]).toMatchObject({
      kind: 'risk-decision',
      cause: 'denial-one-side',
      detail: 'risk gate: live denied MAX_NOTIONAL, replay approved',
    });
    expect(denied[0]!.cost.toFixed()).toBe('-5');
    // a balance denial made after a live fill the polled account had not heard of yet is latency
    const stale = compareStrategy(
      's',
      [{ live: decision(2, T0 + 500, 'SELL', { deny: 'INSUFFICIENT_BALANCE' }), replay: decision(2, T0 + 500, 'SELL') }],
      { ...CTX, liveFillTimes: [T0 + 100], balancesAt: [T0, T0 + 2000] },
      new Map(),
    );
    expect(stale[0]).toMatchObject({ kind: 'risk-decision', cause: 'latency' });
    // the double exit: a second sell live only, made after the first's fill and before the next balances response, is latency too
    const first = decision(2, T0 + 100, 'SELL', { fills: [fill(T0 + 150, '100', '1')] });
    const twice = compareStrategy(
      's',
      [{ live: first, replay: first }, { live: decision(3, T0 + 300, 'SELL', { deny: 'INSUFFICIENT_BALANCE' }) }],
      { ...CTX, liveFillTimes: [T0 + 150], balancesAt: [T0, T0 + 2000] },
      new Map(),
    );
    expect(twice.map((d) => [d.kind, d.cause])).toEqual([['intent-only-live', 'latency']]);
    // the same intent once the balances had shown the fill is not put down to latency
    const later = compareStrategy(
      's',
      [{ live: first, replay: first }, { live: decision(3, T0 + 2500, 'SELL', { deny: 'INSUFFICIENT_BALANCE' }) }],
      { ...CTX, liveFillTimes: [T0 + 150], balancesAt: [T0, T0 + 2000] },
      new Map(),
    );
    expect(later.map((d) => [d.kind, d.cause])).toEqual([['intent-only-live', 'unexplained']]);
  });

  it('compares sizes and cancel targets through the pairing', () => {
    const a = decision(1, T0, 'BUY', { amount: '1.50' });
    const b = decision(1, T0, 'BUY', { amount: '1.5' });
    expect(compareStrategy('s', [{ live: a, replay: b }], CTX, new Map())).toEqual([]);
    const bigger = compareStrategy('s', [{ live: a, replay: decision(1, T0, 'BUY', { amount: '2' }) }], CTX, new Map());
    expect(bigger[0]).toMatchObject({ kind: 'intent-fields', detail: 'place-order differs: baseAmount live 1.50, replay 2' });
    const cancel = (ref: string, target: string): DecisionRecord =>
      ({
        ...decision(2, T0 + 10, 'BUY'),
        kind: 'cancel-order',
        market: undefined,
        side: undefined,
        intent: { kind: 'cancel-order', intentId: ref, strategy: 's', orderRefId: target },
      }) as DecisionRecord;
    expect(compareStrategy('s', [{ live: cancel('l-2', 'l-1'), replay: cancel('r-2', 'r-1') }], CTX, new Map([['l-1', 'r-1']]))).toEqual(
      [],
    );
    expect(
      compareStrategy('s', [{ live: cancel('l-2', 'l-1'), replay: cancel('r-2', 'r-9') }], CTX, new Map([['l-1', 'r-1']]))[0]!.detail,
    ).toContain('not the same order');
  });
});

describe('tradeloop divergence refuses bad input', () => {
  const header = (run?: unknown): string =>
    JSON.stringify({ format: 'tradeloop-stream-recording', version: 1, ...(run !== undefined && { run }) });
  const book = JSON.stringify({
    at: T0,
    stream: 'book:BTCUSD',
    body: { market: 'BTCUSD', bids: [{ price: '99', amount: '1' }], asks: [{ price: '101', amount: '1' }] },
  });
  function recording(name: string, run?: unknown): string {
    const path = join(dir, name);
    writeFileSync(path, `${header(run)}\n${book}\n`);
    return path;
  }
  const journal = join(dir, 'journal.sqlite');
  const db = new Database(journal);
  db.exec(JOURNAL_DDL);
  db.close();
  const strategy = (s: Record<string, unknown>): unknown => ({
    tradeloopVersion: '0.1.0',
    startedAt: T0,
    strategies: [{ params: {}, ...s }],
  });

  async function refused(args: readonly string[], message: RegExp): Promise<void> {
    const r = await runCli(['divergence', ...args]);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  }

  it('a recording without the run header, naming why and the fix', async () => {
    await refused(
      ['--recording', recording('plain.jsonl'), '--journal', journal],
      /has no run information in its header .* cannot be re-run as it was: record with a tradeloop that writes the header/,
    );
  });

  it('a strategy this installation does not have', async () => {
    await refused(
      ['--recording', recording('ghost.jsonl', strategy({ name: 'ghost', spec: 'ghost-strategy' })), '--journal', journal],
      /strategy ghost \(ghost-strategy\) cannot be loaded here: .*no built-in strategy, file or installed package named "ghost-strategy"/,
    );
  });

  it("a plugin whose hash differs from the header's, naming both hashes", async () => {
    const path = recording(
      'changed.jsonl',
      strategy({ name: 'sma-cross', spec: 'sma-cross', builtin: true, hash: 'a'.repeat(64), params: { fast: 2, slow: 3 } }),
    );
    await refused(
      ['--recording', path, '--journal', journal],
      new RegExp(`header's plugin hash is ${'a'.repeat(64)}, this installation's is [0-9a-f]{64}; restore the plugin files`),
    );
  });

  it('a journal that is missing, or not a journal', async () => {
    const path = recording('ok.jsonl', strategy({ name: 'sma-cross', spec: 'sma-cross', params: { fast: 2, slow: 3 } }));
    await refused(
      ['--recording', path, '--journal', join(dir, 'nowhere.sqlite')],
      /--journal.*nowhere\.sqlite does not exist: give the journal\.path file of the recorded run/,
    );
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'these are not the droids\n'.repeat(200));
    await refused(['--recording', path, '--journal', text], /notes\.txt (cannot be opened as a journal|is not a tradeloop journal)/);
    const empty = join(dir, 'empty.sqlite');
    new Database(empty).close();
    await refused(['--recording', path, '--journal', empty], /empty\.sqlite is not a tradeloop journal \(no such table: intents\)/);
  });

  it('a --max-drift that is not an amount', async () => {
    const path = recording('ok2.jsonl', strategy({ name: 'sma-cross', spec: 'sma-cross', params: { fast: 2, slow: 3 } }));
    await refused(['--recording', path, '--journal', journal, '--max-drift', '5%'], /--max-drift.*expected an amount of the quote asset/);
  });
});
