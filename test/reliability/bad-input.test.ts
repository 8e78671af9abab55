import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-helpers.js';
import { tempDir } from '../support/reliability-procs.js';

/** Writes `text` to a fresh file and returns its path. */
function file(name: string, text: string): string {
  const path = join(tempDir('bad-input'), name);
  writeFileSync(path, text);
  return path;
}

const STRATEGY = 'strategies:\n  - plugin: sma-cross\n';

/** Exit code 2 (bad input), the message names `field` and says what to do, and no stack trace. */
async function expectRefused(argv: string[], field: RegExp, fix: RegExp, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const r = await runCli(argv, env);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(field);
  expect(r.stderr).toMatch(fix);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('bad config files are refused with the field and the fix', () => {
  it('unknown keys, top level and nested', async () => {
    await expectRefused(
      ['run', '--config', file('a.yaml', `${STRATEGY}bogus_key: 1\nrisk: { max_open_order: 3 }\n`)],
      /"bogus_key"/,
      /remove them or check the spelling/,
    );
    await expectRefused(
      ['run', '--config', file('b.yaml', `${STRATEGY}risk: { max_open_order: 3 }\n`)],
      /risk.*"max_open_order"/,
      /check the spelling/,
    );
  });

  it('wrong types', async () => {
    await expectRefused(
      ['run', '--config', file('c.yaml', `${STRATEGY}streams: { prices_ms: fast }\n`)],
      /streams\.prices_ms/,
      /"fast" is text, but this key takes a number/,
    );
    await expectRefused(
      ['run', '--config', file('d.yaml', `${STRATEGY}environment: moon\n`)],
      /environment/,
      /"local", "sandbox", "production"/,
    );
  });

  it('missing secrets for a platform environment (never read from files)', async () => {
    await expectRefused(
      ['run', '--config', file('e.yaml', `environment: sandbox\n${STRATEGY}`)],
      /TRADELOOP_CLIENT_ID and TRADELOOP_CLIENT_SECRET/,
      /export them/,
    );
  });

  it('production without confirmation', async () => {
    await expectRefused(
      ['run', '--config', file('f.yaml', `environment: production\n${STRATEGY}`)],
      /confirm_production/,
      /set confirm_production: true/,
    );
  });

  it('a wildcard ui.host in any spelling (judged on the address it parses to, not the text)', async () => {
    for (const host of ['0', '0.0.0.0', '0x0', '0.0', '::', '::0', '0:0:0:0:0:0:0:0', '[::]', '::ffff:0.0.0.0', '::0.0.0.0']) {
      const config = file(`ui-${host.replace(/[^0-9a-z]/gi, '_')}.yaml`, `${STRATEGY}ui: { host: "${host}", port: 0 }\n`);
      for (const command of ['start', 'run']) {
        const r = await runCli(command === 'start' ? [command, '--config', config] : [command, '--config', config, '--duration', '1s']);
        expect(r.code, `${command} ${host}: ${r.stderr}`).toBe(2);
        expect(r.stderr, host).toMatch(/ui\.host: bind one address .*not a wildcard/);
        expect(r.stderr, host).toContain(config);
      }
    }
    // a single address, however written, is taken
    const one = await runCli(['start', '--config', file('ui-ok.yaml', `${STRATEGY}ui: { host: "127.0.0.1", port: 0 }\n`)]);
    expect(one.stderr).not.toMatch(/ui\.host/);
  });

  it('a YAML alias bomb (billion laughs) is a config problem naming the file, not a crash', async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const [prev, cur] = [String.fromCharCode(96 + i), String.fromCharCode(97 + i)];
      levels.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const bomb = file('bomb.yaml', `${STRATEGY}${levels.join('\n')}\n`);
    for (const command of ['start', 'run']) {
      const r = await runCli([command, '--config', bomb]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(bomb);
      expect(r.stderr).toMatch(/\(yaml\): aliases \(\*name\) expand to too much .*write the values out/);
      expect(r.stderr).not.toMatch(/ReferenceError|unexpected error|\n\s+at /);
    }
  });

  it('a journal path that is not a journal', async () => {
    const junk = file('journal.sqlite', 'this is not a SQLite database, it is plain text of some length');
    await expectRefused(
      ['run', '--config', file('g.yaml', `${STRATEGY}journal: { path: ${junk} }\n`), '--duration', '1s'],
      /journal\.path/,
      /point journal\.path at a new file/,
    );
  });
});

describe('bad CLI flags are refused naming the flag', () => {
  it.each([
    [['run', '--duration', 'abc'], /--duration/, /e\.g\. 240s/],
    [['run', '--strategy', 'sma-cross', '--params', 'fast=x'], /--params\.fast/, /"x" is text, but this key takes a number/],
    [['run', '--strategy', 'no-such-strategy'], /no-such-strategy/, /built-ins: /],
    [['run', '--bogus'], /unknown option '--bogus'/, /--help/],
    [['sandbox', '--port', '-5'], /--port/, /from 0 to 65535/],
    [['sandbox', '--faults', 'bogus=1'], /unknown fault mode "bogus"/, /use one of latency/],
    [['sandbox', '--faults', 'error5xx=2'], /error5xx/, /rate from 0 to 1/],
  ] as const)('%j', async (argv, field, fix) => {
    await expectRefused([...argv], field, fix);
  });
});

describe('bad data files are refused naming the line and the fix', () => {
  it('a price file with a wrong header, unparsable rows and a NaN price', async () => {
    const header = file('h.csv', 'time,price\n2025-01-01T00:00:00Z,100\n');
    await expectRefused(
      ['backtest', '--data', header, '--strategy', 'sma-cross'],
      /line 1: unknown column "time"/,
      /expected a header row/,
    );
    const rows = file('r.csv', 'timestamp,price\n2025-01-01T00:00:00Z,100\nnot-a-time,abc\n2025-01-01T00:02:00Z,NaN\n');
    const r = await runCli(['backtest', '--data', rows, '--strategy', 'sma-cross'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 3/);
    expect(r.stderr).toMatch(/fix the file/);
  });

  it('a sandbox state file that is not a snapshot', async () => {
    await expectRefused(
      ['sandbox', '--port', '0', '--state', file('state.json', '{"version": 99, "sim": 7}')],
      /state: .*state\.json is snapshot version 99/,
      /this sandbox reads version 1/,
    );
    await expectRefused(
      ['sandbox', '--port', '0', '--state', file('state2.json', '{"version": 1, "seed": "x"}')],
      /state: .*state2\.json: field seed must be a number/,
      /./,
    );
  });
});
