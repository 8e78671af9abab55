import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFile, parseConfig } from './load.js';
import { builtinConfigFile, describeConfigSource, loadConfig, locateConfig, packageRoot } from './locate.js';
import { significantDigits } from './yaml-money.js';

function yamlFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tradeloop-cfg-')), 'c.yaml');
  writeFileSync(file, text);
  return file;
}

function problemsOf(fn: () => unknown): Record<string, string> {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return Object.fromEntries((e as ConfigError).problems.map((p) => [p.path, p.message]));
  }
  throw new Error('expected a ConfigError');
}

describe('money written as a plain YAML number', () => {
  it('is read from the text of the file when it is a plain decimal of up to 15 digits', () => {
    const cfg = loadConfigFile(
      yamlFile(
        'risk:\n  max_order_notional: 25000\n  min_order_notional: 0.10\n  daily_loss_limit: 123456789012.345\n  max_position:\n    BTC: 1.5\nlocal:\n  funding:\n    USD: 100000\n    BTC: 0.00000001\n',
      ),
    );
    expect(cfg.risk.max_order_notional).toBe('25000');
    // the text as written, not the float YAML makes of it (0.1)
    expect(cfg.risk.min_order_notional).toBe('0.10');
    expect(cfg.risk.daily_loss_limit).toBe('123456789012.345');
    expect(cfg.risk.max_position).toEqual({ BTC: '1.5' });
    expect(cfg.local.funding).toEqual({ USD: '100000', BTC: '0.00000001' });
  });

  it('refuses exponents and more than 15 significant digits, naming the field and the fix, with the other problems', () => {
    const problems = problemsOf(() =>
      loadConfigFile(
        yamlFile(
          'risk:\n  max_order_notional: 2.5e4\n  daily_loss_limit: 1234567890.1234567\n  max_position:\n    BTC: 0x10\n  max_open_orders: -1\n',
        ),
      ),
    );
    expect(problems['risk.max_order_notional']).toMatch(
      /2\.5e4 is a number with an exponent: write the amount as a plain decimal in quotes, e\.g\. "25000"/,
    );
    expect(problems['risk.daily_loss_limit']).toMatch(
      /has 17 significant digits, more than .* \(15\): put the amount in quotes, e\.g\. "1234567890\.1234567"/,
    );
    expect(problems['risk.max_position.BTC']).toMatch(/0x10 is not a plain decimal/);
    expect(problems['risk.max_open_orders']).toMatch(/-1 is too small: write more than 0/);
    expect(Object.keys(problems)).toHaveLength(4);
  });

  it('keeps quoted amounts as they are and counts significant digits from the text', () => {
    expect(loadConfigFile(yamlFile('risk:\n  max_order_notional: "25000.123456789012345678"\n')).risk.max_order_notional).toBe(
      '25000.123456789012345678',
    );
    expect(significantDigits('25000')).toBe(5);
    expect(significantDigits('0.00012')).toBe(2);
    expect(significantDigits('000')).toBe(1);
  });
});

describe('config messages in our own words', () => {
  it('names the field, what is wrong and the fix, never a raw validator message', () => {
    const problems = problemsOf(() =>
      loadConfigFile(
        yamlFile(
          'environment: mars\napi:\n  base_url: nope\n  max_retries: 2.5\n  colour: red\nlocal:\n  speed: fast\n  documents: "yes"\nstreams:\n  prices_ms: 5\nrisk:\n  allowed_markets: BTCUSD\n  max_order_notional: "1e3"\nstrategies:\n  - params: {}\n',
        ),
      ),
    );
    expect(problems).toMatchObject({
      environment: '"mars" is not allowed: write one of "local", "sandbox", "production"',
      'api.base_url': expect.stringMatching(/"nope" is not a URL: write the whole address/),
      'api.max_retries': expect.stringMatching(/2\.5 is not a whole number/),
      api: expect.stringMatching(/unknown key\(s\) "colour": remove them or check the spelling/),
      'local.speed': expect.stringMatching(/"fast" is text, but this key takes a number/),
      'local.documents': expect.stringMatching(/"yes" is text, but this key takes true or false/),
      'streams.prices_ms': expect.stringMatching(/5 is too small: write 100 or more/),
      'risk.allowed_markets': expect.stringMatching(/is text, but this key takes a list/),
      'risk.max_order_notional': expect.stringMatching(/must be an unsigned decimal amount without exponent/),
      'strategies.0.plugin': expect.stringMatching(/is missing: add it/),
    });
    for (const message of Object.values(problems)) expect(message).not.toMatch(/Invalid input|expected \w+, received|Too small|Too big/);
  });

  it('reports every YAML syntax error with its line', () => {
    const problems = problemsOf(() => loadConfigFile(yamlFile('a: 1\na: 2\n')));
    expect(problems['(yaml)']).toBe('not valid YAML at line 2: a key appears twice in the same section: keep one');
    expect(problemsOf(() => loadConfigFile(yamlFile('risk:\n\tmax_open_orders: 3\n')))['(yaml)']).toBe(
      'not valid YAML at line 2: a tab indents this line: indent with spaces',
    );
  });

  it('words problems of a config given in code the same way', () => {
    expect(problemsOf(() => parseConfig({ risk: { max_order_notional: 25000 } }))['risk.max_order_notional']).toMatch(
      /must be a decimal amount, e\.g\. "1000"/,
    );
  });

  it('risk.positions is per_strategy unless the config says shared; another word is named with both choices', () => {
    expect(parseConfig({}).risk.positions).toBe('per_strategy');
    expect(parseConfig({ risk: { positions: 'shared' } }).risk.positions).toBe('shared');
    expect(problemsOf(() => parseConfig({ risk: { positions: 'mine' } }))['risk.positions']).toMatch(/per_strategy .*or shared/);
  });
});

describe('finding the config', () => {
  it('uses --config, else ./config/default.yaml, else the built-in defaults found from the package, saying which', () => {
    const empty = mkdtempSync(join(tmpdir(), 'tradeloop-nocfg-'));
    const builtin = locateConfig(undefined, empty);
    expect(builtin).toEqual({ kind: 'builtin', file: join(packageRoot()!, 'config', 'default.yaml') });
    expect(builtinConfigFile()).toBe(builtin.file);
    expect(describeConfigSource(builtin)).toMatch(
      /none in this folder .*built-in defaults \(.*config\/default\.yaml\), the embedded local sandbox/,
    );
    expect(loadConfig(undefined, empty).config.environment).toBe('local');

    const project = mkdtempSync(join(tmpdir(), 'tradeloop-proj-'));
    mkdirSync(join(project, 'config'));
    writeFileSync(join(project, 'config', 'default.yaml'), 'environment: local\njournal:\n  path: mine.sqlite\n');
    const found = loadConfig(undefined, project);
    expect(found.source).toEqual({ kind: 'project', file: join('config', 'default.yaml') });
    expect(found.config.journal.path).toBe('mine.sqlite');
    expect(describeConfigSource(found.source)).toBe('config: config/default.yaml');

    const flag = loadConfig(yamlFile('journal:\n  path: flag.sqlite\n'), project);
    expect(flag.source.kind).toBe('flag');
    expect(flag.config.journal.path).toBe('flag.sqlite');
  });
});
