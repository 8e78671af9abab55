import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './load.js';

describe('config local.submit_delay_ms', () => {
  it('defaults to 0 (orders entered at once), also in config/default.yaml', () => {
    expect(parseConfig({}).local.submit_delay_ms).toBe(0);
    expect(parseConfig(parse(readFileSync(new URL('../../config/default.yaml', import.meta.url), 'utf8'))).local.submit_delay_ms).toBe(0);
    expect(parseConfig({ local: { submit_delay_ms: 750 } }).local.submit_delay_ms).toBe(750);
  });

  it('refuses a negative, fractional or huge delay, naming the field and the fix', () => {
    for (const [bad, why] of [
      [-1, /0 or more/],
      [1.5, /whole number of milliseconds/],
      [600_001, /at most 600000/],
      ['500', /number/],
    ] as const) {
      try {
        parseConfig({ local: { submit_delay_ms: bad } });
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        expect((e as ConfigError).problems.map((p) => p.path)).toEqual(['local.submit_delay_ms']);
        expect((e as ConfigError).message).toMatch(why);
      }
    }
  });
});
