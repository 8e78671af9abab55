import { describe, expect, it } from 'vitest';
import { BotApi, DEFAULT_TELEGRAM_API, telegramFrom } from './bot-api.js';

const TOKEN = '123456:abcdefghijklmnopqrstuvwxyz';

describe("the chat bot's settings from the environment", () => {
  it('is off without a token, on with a token and chat ids (the Bot API at its default address unless set)', () => {
    expect(telegramFrom({})).toBeUndefined();
    expect(telegramFrom({ TRADELOOP_TELEGRAM_TOKEN: TOKEN, TRADELOOP_TELEGRAM_CHAT_IDS: ' 42, -1001234567890 ' })).toEqual({
      token: TOKEN,
      chatIds: ['42', '-1001234567890'],
      apiBase: DEFAULT_TELEGRAM_API,
    });
    expect(
      telegramFrom({ TRADELOOP_TELEGRAM_TOKEN: TOKEN, TRADELOOP_TELEGRAM_CHAT_IDS: '42', TRADELOOP_TELEGRAM_API: 'http://127.0.0.1:9/' })
        ?.apiBase,
    ).toBe('http://127.0.0.1:9');
  });

  it('refuses what would leave the bot open or broken, naming the variable, never echoing the token', () => {
    expect(() => telegramFrom({ TRADELOOP_TELEGRAM_TOKEN: TOKEN })).toThrow(
      /TRADELOOP_TELEGRAM_CHAT_IDS: must list the chat ids the bot may answer/,
    );
    expect(() => telegramFrom({ TRADELOOP_TELEGRAM_CHAT_IDS: '42' })).toThrow(
      /TRADELOOP_TELEGRAM_CHAT_IDS: is set but TRADELOOP_TELEGRAM_TOKEN is not/,
    );
    expect(() => telegramFrom({ TRADELOOP_TELEGRAM_TOKEN: TOKEN, TRADELOOP_TELEGRAM_CHAT_IDS: '42,@me' })).toThrow(
      /"@me" is not a chat id/,
    );
    expect(() =>
      telegramFrom({ TRADELOOP_TELEGRAM_TOKEN: TOKEN, TRADELOOP_TELEGRAM_CHAT_IDS: '42', TRADELOOP_TELEGRAM_API: 'ftp://x' }),
    ).toThrow(/TRADELOOP_TELEGRAM_API: must be an http/);
    let message = '';
    try {
      telegramFrom({ TRADELOOP_TELEGRAM_TOKEN: 'not a token at all', TRADELOOP_TELEGRAM_CHAT_IDS: '42' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/TRADELOOP_TELEGRAM_TOKEN: is not a Bot API token/);
    expect(message).not.toContain('not a token at all');
  });

  it('masks the token in any text', () => {
    expect(
      new BotApi({ token: TOKEN, apiBase: DEFAULT_TELEGRAM_API }).redact(
        `fetch failed for https://api.telegram.org/bot${TOKEN}/getUpdates`,
      ),
    ).toBe('fetch failed for https://api.telegram.org/bot<token>/getUpdates');
  });
});
