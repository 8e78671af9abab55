import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { type Command } from 'commander';
import { CliExit, type CliContext, writeLine } from '../context.js';

const NAME = /^[a-z][a-z0-9-]{1,48}$/;

/** `tradeloop new-strategy NAME`: writes a plugin file and its test from a template. */
export function registerNewStrategy(program: Command, ctx: CliContext): void {
  program
    .command('new-strategy')
    .description('write a new strategy plugin and its test from a template')
    .argument('<name>', 'kebab-case strategy name, e.g. my-momentum')
    .option('--dir <dir>', 'folder to write into', 'strategies')
    .option('--force', 'overwrite existing files')
    .action((name: string, opts: { dir: string; force?: boolean }) => {
      if (!NAME.test(name)) throw new CliExit(2, `error: name ${JSON.stringify(name)} must be kebab-case (a-z, 0-9, -), 2–49 characters, starting with a letter`);
      const dir = resolve(opts.dir);
      const file = resolve(dir, `${name}.ts`);
      const testFile = resolve(dir, `${name}.test.ts`);
      for (const f of [file, testFile]) {
        if (existsSync(f) && !opts.force) throw new CliExit(2, `error: ${f} exists: choose another name or pass --force`);
      }
      mkdirSync(dir, { recursive: true });
      const src = resolve(import.meta.dirname, '../..');
      const rel = (p: string): string => {
        const r = relative(dirname(file), resolve(src, p)).split('\\').join('/');
        return r.startsWith('.') ? r : `./${r}`;
      };
      writeFileSync(file, pluginTemplate(name, rel('core/index.js'), rel('indicators/index.js'), rel('strategy/index.js')));
      writeFileSync(testFile, testTemplate(name, rel('strategy/index.js')));
      writeLine(ctx.stdout, `wrote ${relative(process.cwd(), file)} and ${relative(process.cwd(), testFile)}`);
      writeLine(ctx.stdout, `try it: npx tradeloop backtest --strategy ${relative(process.cwd(), file)} --market BTCUSD`);
    });
}

function pluginTemplate(name: string, core: string, indicators: string, strategy: string): string {
  return `/**
 * ${name}: describe what it trades and why. This template buys when the price rises above its EMA
 * and sells the whole position when it falls below. Handlers are synchronous and pure: read the
 * context, keep indicator state in closures, return intents (or nothing).
 */
import { z } from 'zod';
import { roundBase, roundQuote, splitMarket } from '${core}';
import { Ema } from '${indicators}';
import { defineStrategy } from '${strategy}';

export default defineStrategy({
  name: '${name}',
  description: 'buy above the EMA, sell below it',
  params: z.object({
    market: z.string().default('BTCUSD'),
    period: z.number().int().min(2).default(20),
    size_pct: z.number().gt(0).max(100).default(50),
  }),
  markets: (p) => [p.market],
  create(p) {
    const ema = new Ema(p.period);
    const { base, quote } = splitMarket(p.market);
    let pending = false;
    return {
      onEvent(e, ctx) {
        if (e.kind !== 'price' || e.market !== p.market) return undefined;
        const average = ema.update(e.price);
        // on warm-up history nothing is sent and no report follows: only the EMA learns
        if (average === undefined || pending || ctx.warmingUp) return undefined;
        const instrument = ctx.instrument(p.market); // tick and decimals as the venue lists them
        const held = ctx.account.total(base).gt(0);
        if (!held && e.price > average) {
          const spend = roundQuote(instrument, ctx.account.available(quote).times(p.size_pct).div(100));
          if (!(Number(spend) > 0)) return undefined;
          pending = true;
          return { kind: 'place-order', market: p.market, side: 'BUY', type: 'MARKET', quoteAmount: spend };
        }
        if (held && e.price < average) {
          pending = true;
          return { kind: 'place-order', market: p.market, side: 'SELL', type: 'MARKET', baseAmount: roundBase(instrument, ctx.account.available(base)) };
        }
        return undefined;
      },
      onReport(r) {
        // filled, cancelled, denied (risk gate), rejected (venue) or failed: the order is settled
        if (r.kind !== 'accepted' && r.kind !== 'unresolved') pending = false;
        return undefined;
      },
    };
  },
});
`;
}

function testTemplate(name: string, strategy: string): string {
  return `import { describe, expect, it } from 'vitest';
import { StrategyTestKit } from '${strategy}';
import plugin from './${name}.js';

describe('${name}', () => {
  it('buys when the price rises above its EMA while flat', () => {
    const kit = new StrategyTestKit(plugin, { period: 3, size_pct: 50 }, { USD: '1000' });
    expect(kit.prices('BTCUSD', [100, 100, 100])).toEqual([]);
    expect(kit.prices('BTCUSD', [110])).toEqual([{ kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '500.00' }]);
  });
});
`;
}
