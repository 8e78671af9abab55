import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

function file(text: string): string {
  const f = join(mkdtempSync(join(tmpdir(), 'tradeloop-cfg-')), 'c.yaml');
  writeFileSync(f, text);
  return f;
}

describe('tradeloop start', () => {
  it('checks the default config and prints the environment and the commands', async () => {
    const r = await runCli(['start']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/environment: local/);
    expect(r.stdout).toMatch(/tradeloop api/);
    expect(r.stdout).toMatch(/tradeloop sandbox/);
  });

  it('exits 2 listing every config problem with its path', async () => {
    const r = await runCli(['start', '--config', file('environment: mars\nrisk:\n  max_open_orders: -3\n  colour: blue\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/environment: "mars" is not allowed: write one of "local", "sandbox", "production"/);
    expect(r.stderr).toMatch(/risk.max_open_orders/);
    expect(r.stderr).toMatch(/unknown key\(s\) "colour"/);
    expect(r.stdout).toBe('');
  });

  it('exits 2 when sandbox credentials are missing, naming the variables, and never prints a secret', async () => {
    const missing = await runCli(['start', '--config', file('environment: sandbox\n')], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/TRADELOOP_CLIENT_ID and TRADELOOP_CLIENT_SECRET/);
    const ok = await runCli(['start', '--config', file('environment: sandbox\n')], {
      TRADELOOP_CLIENT_ID: 'id-1',
      TRADELOOP_CLIENT_SECRET: 'canary-s3cr3t-77',
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout + ok.stderr).not.toContain('canary-s3cr3t-77');
    expect(ok.stdout).toMatch(/https:\/\/api.sandbox.paxos.com\/v2/);
  });

  it('refuses production without confirmation', async () => {
    const r = await runCli(['start', '--config', file('environment: production\n')], {
      TRADELOOP_CLIENT_ID: 'a',
      TRADELOOP_CLIENT_SECRET: 'b',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/confirm_production/);
  });

  it('loads every plugin and validates every params block, reporting all problems at once (exit 2)', async () => {
    const config = file(
      [
        'strategies:',
        '  - plugin: ./no-such-plugin.ts',
        '  - plugin: sma-cross',
        '    params: { fast: 50, slow: 3, size_pct: 500, colour: red }',
        '  - plugin: no-such-builtin',
        '  - plugin: sma-cross',
        '    name: ok-one',
        'risk:',
        '  max_order_notional: 25000',
      ].join('\n'),
    );
    const r = await runCli(['start', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/5 problem\(s\)/);
    expect(r.stderr).toMatch(/strategies\.0\.plugin: ".\/no-such-plugin\.ts": file .*no-such-plugin\.ts does not exist/);
    expect(r.stderr).toMatch(/strategies\.1\.params\.colour: not a parameter of sma-cross/);
    expect(r.stderr).toMatch(/strategies\.1\.params\.size_pct: 500 is too large: write 100 or less/);
    expect(r.stderr).toMatch(/strategies\.1\.params\.fast: fast must be smaller than slow/);
    expect(r.stderr).toMatch(/strategies\.2\.plugin: "no-such-builtin": no built-in strategy.*built-ins: .*sma-cross/);
    expect(r.stderr).not.toMatch(/Too big|Invalid input|\n\s+at /);
  });

  it("reports a schema error and the plugins' and params' problems in one round, in start and in run", async () => {
    const config = file(
      [
        'environment: mars',
        'strategies:',
        '  - plugin: ./no-such-plugin.ts',
        '  - plugin: sma-cross',
        '    params: { fast: 50, slow: 3, colour: red }',
        '  - plugin: sma-cross',
        '    name: Bad Name',
      ].join('\n'),
    );
    for (const command of ['start', 'run']) {
      const r = await runCli([command, '--config', config]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/5 problem\(s\)/);
      expect(r.stderr).toMatch(/environment: "mars" is not allowed/);
      expect(r.stderr).toMatch(/strategies\.2\.name: must be kebab-case/);
      expect(r.stderr).toMatch(/strategies\.0\.plugin: ".\/no-such-plugin\.ts": file .*does not exist/);
      expect(r.stderr).toMatch(/strategies\.1\.params\.colour: not a parameter of sma-cross/);
      expect(r.stderr).toMatch(/strategies\.1\.params\.fast: fast must be smaller than slow/);
    }
  });

  it('says ok only after loading the plugins, and names the config it used', async () => {
    const r = await runCli([
      'start',
      '--config',
      file('strategies:\n  - plugin: sma-cross\n    name: btc\n    params: { fast: 3, slow: 9 }\nrisk:\n  max_order_notional: 25000\n'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^config: .*c\.yaml \(--config\)$/m);
    expect(r.stdout).toMatch(/check: ok .*1 strategy plugin\(s\) loaded/);
    expect(r.stdout).toMatch(/btc \(sma-cross\) on BTCUSD: \{"fast":3,"slow":9/);
  });

  it('takes money written as a plain number and refuses exponents and more than 15 digits naming the field', async () => {
    const ok = await runCli([
      'start',
      '--config',
      file('risk:\n  max_order_notional: 25000\n  daily_loss_limit: 5000.50\n  max_position:\n    BTC: 1.5\n'),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const bad = await runCli([
      'run',
      '--config',
      file('strategies:\n  - plugin: sma-cross\nrisk:\n  max_order_notional: 2.5e4\n  daily_loss_limit: 1000000000000000000\n'),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /risk\.max_order_notional: 2\.5e4 is a number with an exponent: write the amount as a plain decimal in quotes, e\.g\. "25000"/,
    );
    expect(bad.stderr).toMatch(
      /risk\.daily_loss_limit: 1000000000000000000 has 19 significant digits, more than a plain YAML number keeps exactly \(15\): put the amount in quotes/,
    );
    expect(bad.stderr).not.toMatch(/expected string|Invalid input/);
  });

  it('reads a plugin param declared as a decimal from a plain number as written, under the same rule as the risk limits', async () => {
    const ok = await runCli([
      'start',
      '--config',
      file(
        'strategies:\n  - plugin: grid-maker\n    params: { base_amount: 0.0010, max_base: 0.01, levels: 2 }\nrisk:\n  max_order_notional: 25000\n',
      ),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/"levels":2,.*"base_amount":"0\.0010","max_base":"0\.01"/);
    const bad = await runCli([
      'start',
      '--config',
      file('strategies:\n  - plugin: grid-maker\n    params: { base_amount: 1e-3, max_base: 0.12345678901234567 }\n'),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /strategies\.0\.params\.base_amount: 1e-3 is a number with an exponent: write the amount as a plain decimal in quotes/,
    );
    expect(bad.stderr).toMatch(/strategies\.0\.params\.max_base: 0\.12345678901234567 has 17 significant digits/);
    expect(bad.stderr).not.toMatch(/this key takes text/);
    const flags = await runCli(['backtest', '--strategy', 'grid-maker', '--params', 'base_amount=0.5e-3', '--data', 'missing.csv']);
    expect(flags.code).toBe(2);
    expect(flags.stderr).toMatch(/base_amount: 0\.5e-3 is a number with an exponent/);
  });

  it("refuses a __proto__, constructor or prototype key in a strategy's params (never dropped), in the config and in --params (exit 2)", async () => {
    const r = await runCli([
      'start',
      '--config',
      file(
        'strategies:\n  - plugin: sma-cross\n    params:\n      __proto__: { fast: 3 }\n      slow: 9\n  - plugin: sma-cross\n    name: two\n    params: { constructor: 5, trend: { prototype: 1 } }\n',
      ),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/strategies\.0\.params\.__proto__: "__proto__" is a forbidden key .*: remove it/);
    expect(r.stderr).toMatch(/strategies\.1\.params\.constructor: "constructor" is a forbidden key/);
    expect(r.stderr).toMatch(/strategies\.1\.params\.trend\.prototype: "prototype" is a forbidden key/);
    for (const params of ['__proto__=3,fast=4', 'fast=4,prototype=2']) {
      const flags = await runCli(['backtest', '--strategy', 'sma-cross', '--params', params, '--data', 'missing.csv']);
      expect(flags.code, flags.stderr).toBe(2);
      expect(flags.stderr).toMatch(
        new RegExp(
          `--params of strategy sma-cross: ${params.includes('__proto__') ? '__proto__' : 'prototype'}: "[_a-z]+" is a forbidden key`,
        ),
      );
    }
  });

  it("reports a missing credential together with the strategies' problems", async () => {
    const r = await runCli(['start', '--config', file('environment: sandbox\nstrategies:\n  - plugin: ./missing.ts\n')], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/2 problem\(s\)/);
    expect(r.stderr).toMatch(/environment: environment sandbox needs TRADELOOP_CLIENT_ID and TRADELOOP_CLIENT_SECRET/);
    expect(r.stderr).toMatch(/strategies\.0\.plugin: ".\/missing\.ts": file .* does not exist/);
  });
});
