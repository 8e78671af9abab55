/**
 * The divergence report against a real paper run: `tradeloop run --paper` on the embedded sandbox
 * (the real process, 127.0.0.1) with `streams.record`, two plugins that ignore their fills (one buys
 * and sells in turn, one only buys, both every few books), then `tradeloop divergence` on its
 * recording and journal. Replayed on the book model it matches the run decision by decision; with a
 * replay latency the only differences are fills, the first one before any other, each attributed to
 * the fill model; a denial injected into a copy of the journal is found at its decision; the
 * timeline of report.html draws in headless Chromium (skipped, saying so, without Chromium).
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAUSE_COLOURS } from '../../backtest/divergence/html.js';
import { D } from '../../src/core/index.js';
import { runCli } from '../cli/cli-helpers.js';
import { CHROMIUM, CHROMIUM_ARGS, countColours, rgb } from '../support/chart-pixels.js';
import { tradeloop } from '../support/reliability-procs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'tradeloop-divergence-paper-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A plugin that places a MARKET order every `every` books whatever it holds or was filled. */
function plugin(name: string, alternate: boolean): string {
  const file = join(dir, `${name}.ts`);
  writeFileSync(
    file,
    `import { z } from ${JSON.stringify(join(ROOT, 'node_modules/zod/index.js'))};
import { defineStrategy } from ${JSON.stringify(join(ROOT, 'src/strategy/index.ts'))};

export default defineStrategy({
  name: '${name}',
  description: 'a market order every few books, blind to fills',
  params: z.object({ every: z.number().int().default(4) }),
  markets: ['BTCUSD'],
  needs: ['book'],
  create: (p) => {
    let books = 0;
    let buy = true;
    return {
      onEvent(e, ctx) {
        if (e.kind !== 'book' || ctx.warmingUp || ++books % p.every !== 0) return undefined;
        const side = buy ? 'BUY' : 'SELL';
        buy = ${alternate ? '!buy' : 'true'};
        return [side === 'BUY'
          ? { kind: 'place-order', market: 'BTCUSD', side, type: 'MARKET', quoteAmount: '100' }
          : { kind: 'place-order', market: 'BTCUSD', side, type: 'MARKET', baseAmount: '0.001' }];
      },
    };
  },
});
`,
  );
  return file;
}

interface Diff {
  index: number;
  strategy: string;
  seq: number;
  kind: string;
  cause: string;
  cost: string;
  follows: number | null;
  replay: { fills: { price: string; amount: string; fee: string }[] } | null;
}
interface Report {
  differences: Diff[];
  first_difference: Diff | null;
  strategies: {
    name: string;
    mark: string;
    paired: number;
    live: { decisions: number; pnl: string };
    replay: { decisions: number; pnl: string };
  }[];
  drift: Record<string, string>;
  drift_exceeded: boolean;
  notes: string[];
}

const recording = join(dir, 'run.jsonl');
const journal = join(dir, 'journal.sqlite');
let flip = '';
let buyer = '';

async function divergence(args: readonly string[]): Promise<{ code: number; report: Report; stderr: string }> {
  const r = await runCli(['divergence', '--recording', recording, '--journal', journal, '--json', ...args]);
  return { code: r.code, report: (r.stdout.trim() === '' ? {} : JSON.parse(r.stdout)) as Report, stderr: r.stderr };
}

/** The costs of the differences add up to the P&L gap of each strategy, exactly. */
function expectCostsAddUp(report: Report): void {
  for (const s of report.strategies) {
    const sum = report.differences.filter((d) => d.strategy === s.name).reduce((t, d) => t.plus(d.cost), new D(0));
    expect(sum.toFixed()).toBe(new D(s.live.pnl).minus(s.replay.pnl).toFixed());
  }
}

beforeAll(async () => {
  flip = plugin('flip', true);
  buyer = plugin('buyer', false);
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'bot.yaml'),
    [
      'environment: local',
      'strategies:',
      `  - plugin: ${flip}`,
      '    params: { every: 4 }',
      `  - plugin: ${buyer}`,
      '    params: { every: 5 }',
      `streams: { book_ms: 250, balances_ms: 100, record: ${recording} }`,
      `journal: { path: ${journal} }`,
    ].join('\n'),
  );
  const run = tradeloop(['run', '--paper', '--config', join(dir, 'bot.yaml'), '--duration', '10s', '--json'], dir);
  expect(await run.exit, run.err().slice(-2000)).toBe(0);
}, 90_000);

describe('tradeloop divergence on a recorded paper run', () => {
  it('replays the run decision by decision: no difference but fills the book model allows, each put down to it', async () => {
    const { code, report } = await divergence([]);
    expect(code).toBe(0);
    expect(report.strategies.map((s) => s.name)).toEqual(['flip', 'buyer']);
    // one market with books: both on the book model, on one account as they ran
    expect(report.notes).toContain('the 2 strategies are replayed together on one account, as they ran');
    for (const s of report.strategies) {
      expect(s.live.decisions).toBeGreaterThanOrEqual(5);
      expect(s.replay.decisions).toBe(s.live.decisions);
      expect(s.paired).toBe(s.live.decisions);
    }
    // the strategies ignore their fills: every intent and risk decision the same, end to end
    expect(report.differences.filter((d) => d.kind !== 'fill')).toEqual([]);
    for (const d of report.differences) expect(d.cause).toBe('fill-model');
    expectCostsAddUp(report);
    // the replay warmed as the run did, on the header's prices
    for (const name of ['flip', 'buyer'])
      expect(report.notes).toContainEqual(
        expect.stringMatching(new RegExp(`^${name}'s replay warmed up on \\d+ recorded price\\(s\\) \\(the header's warm-up prices\\)`)),
      );
  });

  it('with a replay latency the first difference is a fill, nothing differs before it, and every later one is the fill model', async () => {
    const { code, report } = await divergence(['--latency-ms', '1000']);
    expect(code).toBe(0);
    expect(report.differences.length).toBeGreaterThan(0);
    expect(report.first_difference).toMatchObject({ index: 1, kind: 'fill', cause: 'fill-model' });
    for (const d of report.differences) {
      // a fill that comes a second later can change a later decision of the same strategy (flip sells
      // what its last buy bought: with the buy's fill late, the replay's sale may be denied on balance,
      // depending on how the run's books fell): such a difference is a consequence of an earlier one
      // of its strategy, whose cause it takes, never a difference of its own
      if (d.kind !== 'fill') {
        expect(typeof d.follows, JSON.stringify(d)).toBe('number');
        expect(report.differences.find((x) => x.index === d.follows)?.kind).toBe('fill');
      }
      // an order decided in the last second reaches the replay's venue after the recording ended: no data to fill on
      const afterEnd = d.kind === 'fill' && d.replay!.fills.length === 0 && d.cause === 'data-gap';
      if (!afterEnd) expect(d.cause).toBe('fill-model');
    }
    expect(report.differences.filter((d) => d.cause === 'fill-model').length).toBeGreaterThan(0);
    expectCostsAddUp(report);
  });

  it('finds a denial only live saw (injected into a copy of the journal) at its decision, with its cost', async () => {
    const copy = join(dir, 'edited.sqlite');
    copyFileSync(journal, copy);
    if (existsSync(`${journal}-wal`)) copyFileSync(`${journal}-wal`, `${copy}-wal`);
    const db = new Database(copy);
    const third = db.prepare('SELECT ref_id FROM intents WHERE strategy = ? ORDER BY created_at, rowid LIMIT 1 OFFSET 2').get('flip') as {
      ref_id: string;
    };
    db.prepare("UPDATE intents SET decision = 'deny', denial_code = 'MAX_NOTIONAL', state = 'denied' WHERE ref_id = ?").run(third.ref_id);
    db.prepare('DELETE FROM fills WHERE ref_id = ?').run(third.ref_id);
    db.close();
    const r = await runCli(['divergence', '--recording', recording, '--journal', copy, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    const denial = report.differences.filter((d) => d.kind !== 'fill');
    expect(denial).toHaveLength(1);
    expect(denial[0]).toMatchObject({ strategy: 'flip', seq: 3, kind: 'risk-decision' });
    // before it, only fills the book model explains (a paper fill can meet a book the recording did not
    // keep, as the first test allows): the denial is the first difference of any other kind. It is
    // its own cause, unless such a fill of flip's came first (a paper run on a busy machine): then it
    // follows that fill and takes its cause, as any later difference of a strategy does
    for (const d of report.differences.filter((x) => x.index < denial[0]!.index))
      expect(d).toMatchObject({ kind: 'fill', cause: 'fill-model' });
    if (denial[0]!.follows === null) expect(denial[0]!.cause).toBe('denial-one-side');
    else {
      expect(report.differences.find((x) => x.index === denial[0]!.follows)).toMatchObject({ strategy: 'flip', kind: 'fill' });
      expect(denial[0]!.cause).toBe('fill-model');
    }
    // what the replay's fills of that buy were worth at the last mark is what live missed
    const mark = new D(report.strategies[0]!.mark);
    const replayed = denial[0]!.replay!.fills.reduce(
      (t, f) => t.minus(new D(f.price).times(f.amount)).minus(f.fee).plus(new D(f.amount).times(mark)),
      new D(0),
    );
    expect(denial[0]!.cost).toBe(replayed.negated().toFixed());
    expectCostsAddUp(report);
    // exit 4 past --max-drift, 0 within it
    const drift = new D(report.drift.USD!);
    expect(drift.gt(0)).toBe(true);
    const over = await runCli(['divergence', '--recording', recording, '--journal', copy, '--max-drift', drift.div(2).toFixed()]);
    expect(over.code).toBe(4);
    expect(over.stdout).toMatch(
      new RegExp(
        `\\n  #${denial[0]!.index} \\S+ flip#3 risk-decision cost .* · ${denial[0]!.cause} · risk gate: live denied MAX_NOTIONAL, replay approved\\n`,
      ),
    );
    expect(over.stdout).toMatch(
      denial[0]!.index === 1
        ? /first difference: #1 .* decision 3: risk gate: live denied MAX_NOTIONAL, replay approved/
        : /first difference: #1 .*: fills differ/,
    );
    expect(over.stdout).toMatch(/above --max-drift/);
    expect((await runCli(['divergence', '--recording', recording, '--journal', copy, '--max-drift', drift.plus(1).toFixed()])).code).toBe(
      0,
    );
  });

  it.skipIf(!existsSync(CHROMIUM))('draws the divergence timeline in report.html, offline', { timeout: 60_000 }, async () => {
    const out = join(dir, 'report');
    const r = await runCli(['divergence', '--recording', recording, '--journal', journal, '--latency-ms', '1000', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(out, 'divergence.json'))).toBe(true);
    const profile = mkdtempSync(join(tmpdir(), 'tradeloop-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1200, height: 900 },
    });
    try {
      const outside: string[] = [];
      await context.route('**/*', (route) =>
        route.request().url().startsWith('file:') ? route.continue() : (outside.push(route.request().url()), route.abort()),
      );
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto(`file://${join(out, 'report.html')}`);
      await page.waitForSelector('body[data-divergence-drawn="1"]', { timeout: 15_000 });
      const [chart] = await page.evaluate(countColours, { selector: 'canvas.dchart', colours: { fill: rgb(CAUSE_COLOURS['fill-model']) } });
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
      expect(chart!.drawn).toBe(true);
      expect(chart!.counts.fill).toBeGreaterThan(20);
      expect(await page.locator('table.trades tbody tr').count()).toBeGreaterThan(0);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});

if (!existsSync(CHROMIUM)) console.warn(`skipping the divergence timeline browser check: no Chromium at ${CHROMIUM}`);
