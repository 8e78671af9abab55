/**
 * The dashboard's token, the webhook's URL and secret and the Telegram bot's token are secrets: once the run has read them
 * (Ops.prepare), the logger masks them wherever they would appear; a file cannot carry them.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/index.js';
import { createLogger, SecretSet } from '../../src/log/index.js';
import { Ops } from '../../src/ops/index.js';

const TOKEN = 'ui-token-abcdef0123456789';
const URL_ = 'https://hooks.example.com/T0/B0/xoxo-secret-path';
const SECRET = 'notify-secret-0123456789abcdef';
const BOT_TOKEN = '123456:telegram-token-abcdefghijklmnop';

describe('operations secrets', () => {
  it('are masked in logs once the run has read them', () => {
    let out = '';
    const destination = new Writable({
      write(c, _e, cb) {
        out += String(c);
        cb();
      },
    });
    const secrets = new SecretSet();
    const log = createLogger({ pretty: false, secrets, destination });
    const ops = Ops.prepare({
      config: ConfigSchema.parse({ ui: {} }),
      env: {
        TRADELOOP_UI_TOKEN: TOKEN,
        TRADELOOP_NOTIFY_URL: URL_,
        TRADELOOP_NOTIFY_SECRET: SECRET,
        TRADELOOP_TELEGRAM_TOKEN: BOT_TOKEN,
        TRADELOOP_TELEGRAM_CHAT_IDS: '42',
      },
      log,
      secrets,
    });
    expect(ops).toBeDefined();
    log.warn(
      { url: URL_, detail: `posting to ${URL_} with ${SECRET}` },
      `token ${TOKEN} in a message, https://api.telegram.org/bot${BOT_TOKEN}/getUpdates`,
    );
    log.error(new Error(`failed at ${URL_}?sig=${SECRET} for ${TOKEN}`));
    expect(out).toContain('[REDACTED]');
    for (const s of [TOKEN, URL_, SECRET, 'xoxo-secret-path', BOT_TOKEN]) expect(out).not.toContain(s);
  });

  it('cannot be written in the config file, and a webhook without its secret is refused naming the variable', () => {
    const parsed = ConfigSchema.safeParse({ ui: { token: 'x' }, notify: { url: 'https://x', secret: 'y' } });
    expect(parsed.success).toBe(false);
    const messages = parsed.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ui\.token: secrets are never read from files: .*TRADELOOP_UI_TOKEN/),
        expect.stringMatching(/^notify\.url: .*TRADELOOP_NOTIFY_URL/),
        expect.stringMatching(/^notify\.secret: .*TRADELOOP_NOTIFY_SECRET/),
      ]),
    );
    const log = createLogger({ level: 'silent' });
    expect(() => Ops.prepare({ config: ConfigSchema.parse({}), env: { TRADELOOP_NOTIFY_URL: URL_ }, log })).toThrow(
      /TRADELOOP_NOTIFY_SECRET: must be set to at least 16 characters/,
    );
    expect(() =>
      Ops.prepare({ config: ConfigSchema.parse({}), env: { TRADELOOP_NOTIFY_URL: 'not a url', TRADELOOP_NOTIFY_SECRET: SECRET }, log }),
    ).toThrow(/TRADELOOP_NOTIFY_URL: is not a URL/);
    expect(() => Ops.prepare({ config: ConfigSchema.parse({ ui: { host: '0.0.0.0' } }), env: {}, log })).toThrow();
  });
});
