import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from '../core/index.js';
import { defineStrategy, marketsOf } from './define.js';
import { listBuiltinStrategies, loadStrategy } from './loader.js';
import { parseParamString, resolveParams } from './params.js';
import { StrategyTestKit } from './testkit.js';

const demo = defineStrategy({
  name: 'demo',
  description: 'test strategy',
  params: z.object({ fast: z.number().int().min(1).default(5), market: z.string().default('BTCUSD') }),
  markets: (p) => [p.market],
  create: () => ({}),
});

describe('defineStrategy', () => {
  it('rejects a definition with a bad name and no create, naming both fields', () => {
    expect(() =>
      defineStrategy({ name: 'Bad Name', description: 'x', params: z.object({}), markets: [], create: undefined as never }),
    ).toThrow(/name: a kebab-case string.*create: a function/);
  });

  it('resolves markets from params', () => {
    expect(marketsOf(demo, resolveParams(demo, { market: 'ETHUSD' }))).toEqual(['ETHUSD']);
  });
});

describe('params', () => {
  it('parses k=v lists with numbers and strings', () => {
    expect(parseParamString('fast=10,market=ETHUSD,flag=true')).toEqual({ fast: 10, market: 'ETHUSD', flag: true });
    expect(() => parseParamString('fast')).toThrow(/key=value/);
  });

  it('applies defaults and reports unknown and invalid params together', () => {
    expect(resolveParams(demo, {})).toEqual({ fast: 5, market: 'BTCUSD' });
    try {
      resolveParams(demo, { fast: 0, slow: 3 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as Error).message).toMatch(/slow: unknown parameter of demo/);
      expect((e as Error).message).toMatch(/fast:/);
    }
  });
});

describe('loadStrategy', () => {
  const defineUrl = resolve(import.meta.dirname, 'define.ts');

  it('loads a user TypeScript plugin by path with no build step', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-plugin-'));
    const file = join(dir, 'my-strat.ts');
    writeFileSync(
      file,
      `import { z } from 'zod';\nimport { defineStrategy } from ${JSON.stringify(defineUrl)};\nconst n: number = 3;\nexport default defineStrategy({ name: 'my-strat', description: 'mine', params: z.object({ n: z.number().default(n) }), markets: ['BTCUSD'], create: () => ({}) });\n`,
    );
    const def = await loadStrategy(file);
    expect(def.name).toBe('my-strat');
  });

  it('names the file and the fix when the default export is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-plugin-'));
    const file = join(dir, 'empty.js');
    writeFileSync(file, 'export const x = 1;\n');
    await expect(loadStrategy(file)).rejects.toThrow(/empty\.js has no default export: end the file with `export default defineStrategy/);
  });

  it('explains an unknown name with the list of built-ins', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-builtins-'));
    writeFileSync(join(dir, 'alpha.ts'), 'export default {}\n');
    writeFileSync(join(dir, 'alpha.test.ts'), '\n');
    expect(await listBuiltinStrategies(dir)).toEqual(['alpha']);
    await expect(loadStrategy('no-such-strategy', { strategiesDir: dir })).rejects.toThrow(/built-ins: alpha/);
  });

  it('reports a missing file by path', async () => {
    await expect(loadStrategy('./nope/missing.ts')).rejects.toThrow(/does not exist/);
  });
});

describe('loadStrategy from an installed package', () => {
  it('finds the package in the user directory node_modules', async () => {
    const { mkdirSync } = await import('node:fs');
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-pkg-'));
    const pkg = join(dir, 'node_modules', 'tradeloop-plugin-demo');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({ name: 'tradeloop-plugin-demo', version: '1.0.0', type: 'module', main: 'index.js' }),
    );
    writeFileSync(
      join(pkg, 'index.js'),
      "export default { name: 'pkg-demo', description: 'from a package', params: { shape: {}, safeParse: (v) => ({ success: true, data: v }) }, markets: ['BTCUSD'], create: () => ({}) };\n",
    );
    const def = await loadStrategy('tradeloop-plugin-demo', { cwd: dir, strategiesDir: dir });
    expect(def.name).toBe('pkg-demo');
  });
});

describe('StrategyTestKit.fill', () => {
  const buyer = defineStrategy({
    name: 'buyer',
    description: 'buys 50 USD on the first price, reports what it hears',
    params: z.object({}),
    markets: ['BTCUSD'],
    create() {
      let sent = false;
      return {
        onEvent(e) {
          if (e.kind !== 'price' || sent) return undefined;
          sent = true;
          return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '50.00' };
        },
        onReport(r) {
          if (r.kind === 'filled' && r.orderDone)
            return { kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: r.amount };
          return undefined;
        },
      };
    },
  });

  it('moves the balances and sends accepted then filled, order done', () => {
    const kit = new StrategyTestKit(buyer, {}, { USD: '100' });
    const [buy] = kit.prices('BTCUSD', [40]);
    const after = kit.fill(buy, { price: '40', commission: '0.05' });
    expect(kit.ctx.account.available('BTC').toFixed()).toBe('1.25');
    expect(kit.ctx.account.available('USD').toFixed()).toBe('49.95');
    expect(after).toEqual([{ kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '1.25' }]);
    kit.fill(after[0], { price: 44 });
    expect(kit.ctx.account.available('BTC').toFixed()).toBe('0');
    expect(kit.ctx.account.available('USD').toFixed()).toBe('104.95');
  });

  it('refuses what it cannot fill, naming the fix', () => {
    const kit = new StrategyTestKit(buyer, {}, { USD: '100' });
    expect(() => kit.fill(undefined, { price: 1 })).toThrow(/no intent given: pass a place-order intent/);
    expect(() => kit.fill({ kind: 'cancel-order', orderRefId: 'x' }, { price: 1 })).toThrow(/a cancel-order intent given/);
    const [buy] = kit.prices('BTCUSD', [40]);
    expect(() => kit.fill(buy, { price: '-1' })).toThrow(/price -1 is not a price: give a decimal above 0/);
  });
});
