import { copyFileSync, mkdtempSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MarketSymbol } from '../../src/core/index.js';
import { portfolioFingerprint, type PortfolioJobSpec } from './portfolio-job.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-portfolio-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
copyFileSync(resolve(import.meta.dirname, '../../strategies/sma-cross.ts'), join(dir, 'trend.ts'));

const series = (last: number) => [
  { market: 'BTCUSD' as MarketSymbol, source: 'btc.csv', times: new Float64Array([1, 2]), prices: new Float64Array([10, last]) },
];
const spec = (over: Partial<PortfolioJobSpec> = {}): PortfolioJobSpec => ({
  entries: [
    { plugin: 'sma-cross', name: 'a', params: { fast: 2 } },
    { plugin: './trend.ts', name: 'b', params: { fast: 3 } },
  ] as PortfolioJobSpec['entries'],
  file: 'bot.yaml',
  target: 'b',
  objective: 'strategy',
  series: series(11),
  ...over,
});

describe('portfolioFingerprint (the key of a study of a strategy inside a config)', () => {
  it('changes with the config, any plugin file, the data, the target and the objective, and only then', () => {
    const key = portfolioFingerprint(spec(), dir);
    expect(portfolioFingerprint(spec(), dir)).toBe(key);
    const other = spec().entries.map((e, k) => (k === 0 ? { ...e, params: { fast: 4 } } : e));
    expect(portfolioFingerprint(spec({ entries: other }), dir)).not.toBe(key);
    expect(portfolioFingerprint(spec({ series: series(12) }), dir)).not.toBe(key);
    expect(portfolioFingerprint(spec({ target: 'a' }), dir)).not.toBe(key);
    expect(portfolioFingerprint(spec({ objective: 'portfolio' }), dir)).not.toBe(key);
    appendFileSync(join(dir, 'trend.ts'), '\n// edited\n');
    expect(portfolioFingerprint(spec(), dir)).not.toBe(key);
  });
});
