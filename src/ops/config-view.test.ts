import { describe, expect, it } from 'vitest';
import { createLogger, SecretSet } from '../log/index.js';
import { redactConfig } from './config-view.js';
import { LogTail, logLevelOf } from './log-tail.js';

describe('redactConfig', () => {
  it('hides values under secret-named keys at any depth, and masks secret values wherever they appear', () => {
    const secrets = new SecretSet();
    secrets.add('s3cr3t-client-value');
    const shown = redactConfig(
      {
        environment: 'sandbox',
        api: {
          base_url: 'https://bot:hunter2@api.example.com/v1?access_token=abc123&x=1',
          client_id: 'id-1',
          client_secret: 'x',
          apiKey: 'k-1',
        },
        ui: { port: 0, token: 'tok' },
        notify: { webhook_url: 'https://hooks.example/x', header: 'Bearer eyJhbGciOi.J9' },
        strategies: [{ plugin: 'sma', params: { note: 'uses s3cr3t-client-value', fast: 5, Password: 'p' } }],
        risk: { max_order_notional: '100', kill_switch: { max_drawdown_pct: 10 } },
        empty_token: '',
      },
      secrets,
    );
    expect(shown).toEqual({
      environment: 'sandbox',
      api: {
        base_url: 'https://bot:[REDACTED]@api.example.com/v1?access_token=[REDACTED]&x=1',
        client_id: 'id-1',
        client_secret: '[REDACTED]',
        apiKey: '[REDACTED]',
      },
      ui: { port: 0, token: '[REDACTED]' },
      notify: { webhook_url: '[REDACTED]', header: 'Bearer [REDACTED]' },
      strategies: [{ plugin: 'sma', params: { note: 'uses [REDACTED]', fast: 5, Password: '[REDACTED]' } }],
      risk: { max_order_notional: '100', kill_switch: { max_drawdown_pct: 10 } },
      empty_token: '',
    });
  });
});

describe('LogTail', () => {
  it("keeps the logger's last records (bounded), filters by level, and never shows a secret", () => {
    const secrets = new SecretSet();
    secrets.add('tok-0123456789abcdef');
    const tail = new LogTail(3, secrets);
    const log = createLogger({ level: 'debug', destination: { write: () => undefined }, secrets, tap: tail });
    log.debug('first');
    log.info({ component: 'risk' }, 'denied: too big');
    log.warn('the token tok-0123456789abcdef was seen');
    log.error({ err: new Error('boom tok-0123456789abcdef') }, 'failed');
    const all = tail.records();
    expect(all.map((r) => [r.level, r.msg])).toEqual([
      ['error', 'failed'],
      ['warn', 'the token [REDACTED] was seen'],
      ['info', 'denied: too big'],
    ]);
    expect(all[0]!.err).toBe('boom [REDACTED]');
    expect(all[2]!.component).toBe('risk');
    expect(tail.records('warn').map((r) => r.level)).toEqual(['error', 'warn']);
    expect(JSON.stringify(all)).not.toContain('tok-0123456789abcdef');
    // a secret that reached a line unmasked (added to the set later) is still masked as it is read
    tail.write(JSON.stringify({ level: 30, time: 1, msg: 'late s3cr3t-later' }));
    secrets.add('s3cr3t-later');
    expect(tail.records('info', 1)[0]!.msg).toBe('late [REDACTED]');
  });

  it('reads a level from a query, refusing an unknown one by name', () => {
    expect(logLevelOf(null)).toBe('trace');
    expect(logLevelOf('WARN')).toBe('warn');
    expect(logLevelOf('loud')).toBe('level must be one of trace, debug, info, warn, error, fatal (got "loud")');
  });
});
