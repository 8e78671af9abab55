/**
 * Each fill rule is written once (src/platform/order-life.ts, src/fills/rules): the simulator's
 * matching and the fill models call it. This reads their source for the forms the rules took when
 * each wrote its own, so writing one again inline fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
/** Where orders are matched and filled: the simulator's exchange and ticks, and every fill model. */
const FOLDERS = ['src/sim/exchange', 'src/fills'];
const TOP_SIM = ['src/sim/sim-ticks.ts', 'src/sim/snapshot.ts', 'src/sim/sim.ts'];

const INLINE: ReadonlyArray<readonly [rule: string, form: RegExp]> = [
  ['the stop trigger (order-life.ts stopFires)', /stopPrice!?\.toNumber\(\)\s*[<>]|[<>]=?\s*\w+(\.\w+)*\.stopPrice|price\s*>\s*stop\b/],
  ['stop types (order-life.ts isStopType)', /'STOP_MARKET'\s*\|\|\s*\w+(\.\w+)*\s*===\s*'STOP_LIMIT'/],
  ['GTT expiry (order-life.ts gttExpired, gttTooSoon)', /expiresAt!?\s*<=|expiresAt\s*>\s*\w+(\.\w+)*createdAt/],
  ['post-only (order-life.ts postOnlyRefusal)', /===\s*'POST_ONLY_LIMIT'/],
  ['the remainder of an immediate order (order-life.ts takesOnly)', /===\s*'IOC'\s*\|\|/],
  ['a price crossing a limit (order-life.ts crosses)', /side === 'BUY' \? \w+(\.\w+)*\s*(<=|\.lte\()/],
  ['admitting a debit between profiles (sim/platform/transfers.ts admitDebit)', /limits\.check\([^)]*_DEBIT/],
];

function sources(): Array<{ file: string; text: string }> {
  const files = FOLDERS.flatMap((dir) => readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f}`));
  return [...files, ...TOP_SIM]
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
}

describe('each fill rule is written once', () => {
  const all = sources();

  it('reads the simulator and every fill model', () => {
    expect(all.map((s) => s.file)).toEqual(
      expect.arrayContaining([
        'src/sim/exchange/matching.ts',
        'src/fills/point/market.ts',
        'src/fills/book/matching.ts',
        'src/fills/rules/transfers.ts',
      ]),
    );
  });

  it.each(INLINE)('%s is not written again in the simulator or a fill model', (_rule, form) => {
    const found = all.flatMap(({ file, text }) =>
      text.split('\n').flatMap((line, i) => (form.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
