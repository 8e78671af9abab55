/**
 * Chat control of a real `tradeloop run` on the embedded sandbox, its Bot API a fake on 127.0.0.1:
 * the run's header says the bot is on (never the token), the run-start and fill notifications reach
 * the allowed chat, /status answers how trading stands and /halt halts the run (seen through the
 * control API too); the token appears nowhere in the run's output.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startUiRun, TOKEN as UI_TOKEN } from '../ops/ops-cli.js';
import { startFakeTelegram, type FakeTelegram } from '../support/fake-telegram.js';
import { useTradeloop, waitFor } from '../support/reliability-procs.js';

const start = useTradeloop();
const BOT_TOKEN = '987654:e2e-chat-token-abcdefghijklmnopqrstuvwxyz';
const CHAT = '5150';
let fake: FakeTelegram | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('tradeloop run with chat control', () => {
  it("answers /status and halts on /halt from the allowed chat, and sends the run's notifications", { timeout: 120_000 }, async () => {
    const bot = (fake = await startFakeTelegram(BOT_TOKEN));
    const run = await startUiRun(start, {
      TRADELOOP_UI_TOKEN: UI_TOKEN,
      TRADELOOP_TELEGRAM_TOKEN: BOT_TOKEN,
      TRADELOOP_TELEGRAM_CHAT_IDS: CHAT,
      TRADELOOP_TELEGRAM_API: bot.url,
    });
    expect(run.proc.err()).toContain('telegram: chat control and notifications on for 1 chat(s) (TRADELOOP_TELEGRAM_CHAT_IDS)');

    expect((await bot.waitSent((m) => m.text.startsWith('run started'), 'run-start')).text).toMatch(/^run started in local: ops-probe$/);
    expect((await bot.waitSent((m) => m.text.startsWith('fill:'), "the probe's fill")).text).toMatch(/^fill: BUY \d+\.\d+ BTCUSD @ \d+/);

    bot.push(CHAT, '/status');
    expect((await bot.waitSent((m) => m.text.startsWith('trading:'), 'the status')).text).toMatch(
      /^trading: running\nequity: [\d,.]+ USD, P&L -?[\d,.]+ USD\nstrategies: ops-probe running\n/,
    );
    bot.push(CHAT, '/halt from the phone');
    expect((await bot.waitSent((m) => m.text.startsWith('halt:'), 'the halt')).text).toBe(
      'halt: done\ntrading: HALTED: halted by an operator: from the phone',
    );
    expect((await run.api('/api/status')).body.trading).toMatchObject({ state: 'halted', reason: 'halted by an operator: from the phone' });
    expect(bot.sent.every((m) => m.chatId === CHAT)).toBe(true);

    expect((await run.api('/api/stop', { method: 'POST' })).status).toBe(202);
    await waitFor(() => run.proc.child.exitCode !== null, 'the run to exit', 60_000);
    await bot.waitSent((m) => m.text.startsWith('run stopped'), 'run-stop');
    expect(run.proc.err() + run.proc.out()).not.toContain(BOT_TOKEN.split(':')[1]);
  });
});
