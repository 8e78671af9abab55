import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import type { SimSnapshot } from '../../src/sim/snapshot.js';
import { savedWorld as world } from '../support/saved-world.js';
import { journalReady, tempDir, useTradeloop, waitFor } from '../support/reliability-procs.js';

const start = useTradeloop();
const PLUGIN = resolve(import.meta.dirname, '../reliability/fixtures/history-churn.ts');
const PREFIX = 'hx';
const FUNDING_USD = '100000';

/** A local config in `dir`: the embedded sandbox's world and the journal in `.tradeloop/`, the history-churn plugin (or none). */
function writeConfig(dir: string, trading: boolean): string {
  const file = join(dir, trading ? 'trade.yaml' : 'idle.yaml');
  writeFileSync(
    file,
    [
      'environment: local',
      `local: { seed: 17, funding: { USD: "${FUNDING_USD}" } }`,
      'strategies:',
      // the restart only recovers and follows: a strategy that trades on would race the comparison
      trading
        ? `  - plugin: ${PLUGIN}`
        : '  - plugin: grid-maker\n    params: { market: BTCUSD, levels: 1, spacing_bps: 5000, recenter_bps: 9000 }',
      'streams: { prices_ms: 250, balances_ms: 500, orders_ms: 250, warmup_points: 0 }',
      'risk: { max_intents_per_minute: 10000, max_open_orders: 100, max_order_notional: "100000", stale_after_ms: 60000 }',
      `run: { cancel_on_exit: false, ref_prefix: ${PREFIX} }`,
      'log: { level: info }',
      '',
    ].join('\n'),
  );
  return file;
}

interface Row {
  readonly ref_id: string;
  readonly kind: string;
  readonly state: string;
  readonly status: string | null;
  readonly venue_id: string | null;
  readonly market: string | null;
  readonly side: string | null;
  readonly amount_filled: string;
  readonly payload: string;
  readonly created_at: number;
}

interface Fill {
  readonly fill_id: string;
  readonly ref_id: string;
  readonly market: string;
  readonly side: string;
  readonly amount: string;
  readonly price: string;
  readonly commission: string;
  readonly commission_asset: string;
}

function readRows(file: string): { intents: Row[]; fills: Fill[] } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return { intents: db.prepare('SELECT * FROM intents').all() as Row[], fills: db.prepare('SELECT * FROM fills').all() as Fill[] };
  } finally {
    db.close();
  }
}

function forget(file: string, refIds: readonly string[]): void {
  const db = new Database(file);
  for (const ref of refIds)
    for (const table of ['events', 'fills', 'intents']) db.prepare(`DELETE FROM ${table} WHERE ref_id = ?`).run(ref);
  db.close();
}

const seqOf = (ref: string): number => Number(ref.slice(ref.lastIndexOf('-') + 1));
const assetsOf = (market: string): [string, string] => [market.slice(0, -3), market.slice(-3)];

class Tally {
  readonly by = new Map<string, Decimal>();
  add(asset: string, amount: Decimal.Value): void {
    this.by.set(asset, (this.by.get(asset) ?? new Decimal(0)).plus(amount));
  }
  /** Every asset's amount as text, zeros left out. */
  text(): Record<string, string> {
    return Object.fromEntries(
      [...this.by]
        .filter(([, v]) => !v.isZero())
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, v.toFixed()]),
    );
  }
}

/** What the journal says the bot's trading did to each asset: its fills (with fees) and its settled quote executions. */
function journalBalances(j: { intents: Row[]; fills: Fill[] }): Record<string, string> {
  const t = new Tally();
  for (const f of j.fills) {
    const [base, quote] = assetsOf(f.market);
    const sign = f.side === 'BUY' ? 1 : -1;
    t.add(base, new Decimal(f.amount).times(sign));
    t.add(quote, new Decimal(f.amount).times(f.price).times(-sign));
    t.add(f.commission_asset, new Decimal(f.commission).neg());
  }
  for (const r of j.intents) {
    if (r.kind !== 'execute-quote' || r.status !== 'SETTLED') continue;
    const [base, quote] = assetsOf(r.market ?? '');
    const sign = r.side === 'BUY' ? 1 : -1;
    const intent = JSON.parse(r.payload) as { quoteAmount?: string };
    t.add(base, new Decimal(r.amount_filled).times(sign));
    t.add(quote, new Decimal(intent.quoteAmount ?? '0').times(-sign));
  }
  return t.text();
}

/** The venue's balances of the default profile, less the funding it started with. */
function venueBalances(w: SimSnapshot): Record<string, string> {
  const t = new Tally();
  for (const [profile, asset, available, hold] of w.balances)
    if (profile === w.profiles.defaultId) t.add(asset, new Decimal(available).plus(hold));
  t.add('USD', new Decimal(FUNDING_USD).neg());
  return t.text();
}

describe("a journal that lost rows, restarted on the embedded sandbox's persisted world", () => {
  it(
    "journals every venue order and quote execution of ours it lacks, open or closed, with their fills: its balances equal the venue's",
    { timeout: 300_000 },
    async () => {
      const cwd = tempDir('orphans-history');
      const journal = join(cwd, '.tradeloop/journal.sqlite');
      const state = join(cwd, '.tradeloop/sandbox-state.sqlite');
      const first = start(['run', '--config', writeConfig(cwd, true)], cwd);
      const enough = (): boolean => {
        if (!journalReady(journal)) return false;
        const j = readRows(journal);
        const filled = new Set(j.fills.map((f) => f.ref_id)).size;
        const resting = j.intents.filter((r) => r.kind === 'place-order' && r.state === 'open').length;
        const settled = j.intents.filter((r) => r.kind === 'execute-quote' && r.status === 'SETTLED').length;
        return filled >= 8 && resting >= 2 && settled >= 2;
      };
      await waitFor(
        () => enough() || first.child.exitCode !== null,
        'filled orders, resting bids and settled quote executions in the journal',
        180_000,
      );
      expect(first.child.exitCode, first.err().slice(-2000)).toBeNull();
      first.child.kill('SIGKILL');
      await first.exit;

      // rows deleted by hand: a resting bid, the newest filled order and the newest settled quote
      // execution, none of them the journal's last id (a journal behind the venue's ids is refused)
      const before = readRows(journal);
      const last = Math.max(...before.intents.map((r) => seqOf(r.ref_id)));
      const older = before.intents.filter((r) => seqOf(r.ref_id) < last).sort((a, b) => seqOf(b.ref_id) - seqOf(a.ref_id));
      const filledRefs = new Set(before.fills.map((f) => f.ref_id));
      const resting = older.find((r) => r.kind === 'place-order' && r.state === 'open');
      const filled = older.find((r) => r.kind === 'place-order' && filledRefs.has(r.ref_id));
      const quote = older.find((r) => r.kind === 'execute-quote' && r.status === 'SETTLED');
      expect([resting, filled, quote].every(Boolean), 'a resting bid, a filled order and a settled quote execution below the last id').toBe(
        true,
      );
      const lost = [resting!.ref_id, filled!.ref_id, quote!.ref_id];
      forget(journal, lost);
      const atKill = world(state);
      expect(journalBalances(readRows(journal))).not.toEqual(venueBalances(atKill));

      const second = start(['run', '--config', writeConfig(cwd, false), '--duration', '8s', '--json'], cwd);
      expect(await second.exit, second.err().slice(-3000)).toBe(0);

      const after = readRows(journal);
      const w = world(state);
      expect(journalBalances(after)).toEqual(venueBalances(w));
      const rows = new Map(after.intents.map((r) => [r.ref_id, r]));
      for (const ref of lost) expect(rows.get(ref), `${ref} journaled again`).toBeDefined();
      // every venue record of ours is journaled, under its venue id and with its status
      for (const o of w.orders) {
        const ref = String(o.refId);
        if (!ref.startsWith(`${PREFIX}-`)) continue;
        expect(rows.get(ref), `order ${ref}`).toMatchObject({ kind: 'place-order', venue_id: String(o.id), status: String(o.status) });
      }
      for (const x of w.quoteExecutions) {
        const ref = String(x.refId);
        if (!ref.startsWith(`${PREFIX}-`)) continue;
        expect(rows.get(ref), `quote execution ${ref}`).toMatchObject({
          kind: 'execute-quote',
          venue_id: String(x.id),
          status: String(x.status),
        });
      }
      const ours = new Set(w.orders.filter((o) => String(o.refId).startsWith(`${PREFIX}-`)).map((o) => String(o.id)));
      const venueFills = w.executions
        .filter((x) => ours.has(String(x.orderId)))
        .map((x) => String(x.executionId))
        .sort();
      expect(after.fills.map((f) => f.fill_id).sort()).toEqual(venueFills);
      // the restart's own ids go on past every id the venue holds
      const restartIds = after.intents
        .filter((r) => !before.intents.some((b) => b.ref_id === r.ref_id) && !lost.includes(r.ref_id))
        .map((r) => seqOf(r.ref_id));
      for (const n of restartIds) expect(n).toBeGreaterThan(last);
    },
  );
});
