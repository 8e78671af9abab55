/**
 * The Telegram chat bot against a fake Bot API on 127.0.0.1 (test/support/fake-telegram.ts): an allowed
 * chat's /halt halts trading and /resume lifts it through the control actions; a chat not allowed gets
 * nothing and is logged once; a Bot API that never answers only fills the bot's bounded queue, never
 * the fill's handling (every subscriber sees the fill before any delivery answers, and the queue stays
 * at its cap); the token appears in no log line, even when the API refuses it or cannot be reached.
 */
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import type { ExecReport } from '../../src/core/index.js';
import { createLogger, type Logger } from '../../src/log/index.js';
import { OpsState, RunMetrics, RunNotifications } from '../../src/ops/index.js';
import { ACTIONS, Control } from '../../src/ops/control.js';
import { TelegramBot } from '../../src/ops/notify/telegram/bot.js';
import { startFakeTelegram, type FakeTelegram } from '../support/fake-telegram.js';
import { waitFor } from '../support/reliability-procs.js';
import { stubRun, type StubRun } from './stub-run.js';
import { parsePrometheusText } from './prometheus-text.js';

const TOKEN = '123456:chat-token-abcdefghijklmnopqrstuvwxyz';
const ALLOWED = '4242';
const FOREIGN = '-1009999';

const open: { bot: TelegramBot; fake: FakeTelegram }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.bot.close();
    await o.fake.close();
  }
});

function capturingLog(): { log: Logger; text: () => string } {
  let out = '';
  const destination = new Writable({
    write(c, _e, cb) {
      out += String(c);
      cb();
    },
  });
  return { log: createLogger({ pretty: false, destination }), text: () => out };
}

async function setup(
  o: { capacity?: number; daily?: () => unknown; apiBase?: string; token?: string } = {},
): Promise<{ bot: TelegramBot; fake: FakeTelegram; stub: StubRun; state: OpsState; logs: () => string }> {
  const fake = await startFakeTelegram(TOKEN);
  const clock = new TestClock(Date.UTC(2026, 0, 5, 12));
  const stub = stubRun(clock, ['alpha', 'beta']);
  const state = new OpsState(stub.run);
  const { log, text } = capturingLog();
  const bot = new TelegramBot({
    settings: { token: o.token ?? TOKEN, chatIds: [ALLOWED], apiBase: o.apiBase ?? fake.url },
    commands: { state, control: new Control(stub.run, state, log), ...(o.daily && { daily: o.daily }) },
    clock,
    log,
    events: ['fill', 'kill-switch', 'run-start', 'run-stop'],
    capacity: o.capacity ?? 100,
    timeoutMs: 60_000,
    maxAttempts: 3,
    pollSeconds: 1,
  });
  open.push({ bot, fake });
  bot.start();
  return { bot, fake, stub, state, logs: text };
}

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const fill = (n: number): ExecReport =>
  ({
    kind: 'filled',
    refId: `t-${n}`,
    orderId: `o-${n}`,
    market: 'BTCUSD',
    side: 'BUY',
    amount: '0.001',
    price: '50000',
    commission: '0.05',
    commissionAsset: 'USD',
    at: n,
  }) as unknown as ExecReport;

describe('the Telegram chat bot', () => {
  it(
    'an allowed chat halts and resumes trading, reads status, positions, profit and daily P&L, and is told what it cannot do',
    { timeout: 60_000 },
    async () => {
      const { fake, state } = await setup({
        daily: () => ({ days: [{ date: '2026-01-05', strategy: 'alpha', realized: '12.5', fees: '0.4', trades: 3 }] }),
      });
      const ask = async (text: string): Promise<string> => {
        const before = fake.sent.length;
        fake.push(ALLOWED, text);
        return (await fake.waitSent((m) => fake.sent.indexOf(m) >= before && m.chatId === ALLOWED, `answering ${text}`)).text;
      };
      expect(await ask('/halt lunch')).toBe('halt: done\ntrading: HALTED: halted by an operator: lunch');
      expect(state.haltState().state).toBe('halted');
      expect(await ask('/status')).toMatch(
        /^trading: HALTED: halted by an operator: lunch\nequity: 1,?000\.00 USD, P&L 0\.00 USD\nstrategies: alpha running, beta running\n/,
      );
      expect(await ask('/resume@tradeloop_bot')).toBe('resume: done\ntrading: running');
      expect(state.haltState().state).toBe('running');
      expect(await ask('/positions')).toBe('no positions');
      expect(await ask('/profit')).toMatch(/^alpha: 0\.00 USD \(0 round trip\(s\), 0 won\)\nbeta: 0\.00 USD .*\ntotal: 0\.00 USD/);
      expect(await ask('/daily')).toBe('2026-01-05 alpha: 12.5 (fees 0.4, 3 trade(s))');
      expect(await ask('/exit nobody')).toMatch(/^exit refused: no running strategy is named "nobody": running: alpha, beta/);
      expect(await ask('/exit')).toBe('exit needs the strategy: /exit STRATEGY [MARKET]');
      const pause = await ask('/pause alpha');
      if ((ACTIONS as readonly string[]).includes('pause')) expect(pause).toMatch(/^pause: done for alpha/);
      else expect(pause).toBe('pause of one strategy is not available in this version (/halt and /resume act on all trading)');
      expect(await ask('/dance')).toMatch(/^unknown command "\/dance":\n\/status/);
    },
  );

  it('answers daily P&L as not available when the run has no daily reader', { timeout: 60_000 }, async () => {
    const { fake } = await setup();
    fake.push(ALLOWED, '/daily');
    expect((await fake.waitSent((m) => m.chatId === ALLOWED, 'the answer')).text).toBe('daily P&L is not available in this version');
  });

  it('gives a chat not allowed nothing, logs it once per chat id, and never writes the token in a log', { timeout: 60_000 }, async () => {
    const { fake, state, logs } = await setup();
    fake.push(FOREIGN, '/halt');
    fake.push(FOREIGN, '/status');
    fake.push(FOREIGN, '/halt again');
    // updates are handled in order: the allowed chat's answer comes after the foreign ones were read
    fake.push(ALLOWED, '/status');
    await fake.waitSent((m) => m.chatId === ALLOWED, "the allowed chat's answer");
    expect(fake.sent.filter((m) => m.chatId !== ALLOWED)).toEqual([]);
    expect(state.haltState().state).toBe('running');
    const refusals = logs()
      .split('\n')
      .filter((l) => l.includes(`chat ${FOREIGN}`));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain(
      `a message from chat ${FOREIGN}, which is not in TRADELOOP_TELEGRAM_CHAT_IDS, was ignored (logged once per chat)`,
    );
    expect(fake.paths.every((p) => p.startsWith(`/bot${TOKEN}/`))).toBe(true);
    expect(logs()).not.toContain(TOKEN);
    expect(logs()).not.toContain(TOKEN.split(':')[1]);
  });

  it(
    'a Bot API that never answers holds no fill up: the fill reaches every subscriber at once, the queue stays at its cap, /metrics counts its drops',
    { timeout: 60_000 },
    async () => {
      const { bot, fake, stub, state } = await setup({ capacity: 5 });
      const metrics = new RunMetrics({ processMetrics: false });
      metrics.attach(stub.run, state, { notify: { telegram: () => bot.notifier.stats() } });
      fake.silent = true;
      const notifications = new RunNotifications(stub.run, bot);
      const seen: string[] = [];
      stub.run.kernel.reports$.subscribe((r) => seen.push(r.refId));
      stub.reports.next(fill(1));
      // the fill was queued and the next subscriber had it before next() returned: nothing waited on delivery
      expect(seen).toEqual(['t-1']);
      expect(bot.notifier.stats()).toMatchObject({ queued: 1, sent: 0 });
      await waitFor(() => fake.sendRequests() === 1, 'the first sendMessage in flight', 30_000);
      for (let n = 2; n <= 8; n++) {
        stub.reports.next(fill(n));
        expect(seen.at(-1)).toBe(`t-${n}`);
      }
      // t-1 in flight at the head; the oldest waiting ones dropped past the cap of 5
      expect(bot.notifier.stats()).toMatchObject({ queued: 5, dropped: 3, sent: 0, capacity: 5 });
      expect(fake.sendRequests()).toBe(1);
      expect(fake.sent).toEqual([]);
      const scraped = parsePrometheusText(await metrics.text());
      expect(
        ['dropped_total', 'queued', 'queue_capacity', 'sent_total'].map((m) =>
          scraped.get(`tradeloop_notifications_${m}{channel="telegram"}`),
        ),
      ).toEqual([3, 5, 5, 0]);
      notifications.close();
    },
  );

  it(
    "sends the run's notifications to each allowed chat, and keeps the token out of errors when the API refuses it or is gone",
    { timeout: 60_000 },
    async () => {
      const { bot, fake, stub } = await setup();
      const notifications = new RunNotifications(stub.run, bot);
      stub.reports.next(fill(1));
      expect((await fake.waitSent((m) => m.text.startsWith('fill:'), 'the fill')).text).toBe('fill: BUY 0.001 BTCUSD @ 50000 [t-1]');
      stub.trip('drawdown 11% exceeds 10%');
      notifications.check();
      expect((await fake.waitSent((m) => m.text.startsWith('trading halted'), 'the halt')).text).toBe(
        'trading halted: drawdown 11% exceeds 10% (reducing orders still pass)',
      );
      notifications.close();

      const wrong = await setup({ token: '123456:another-token-abcdefghijklmnopqrst' });
      await waitFor(() => wrong.logs().includes('refused the token'), 'the refusal logged', 30_000);
      expect(wrong.logs()).toMatch(
        /telegram: reading the chats failed \(getUpdates: HTTP 401 \(Unauthorized\)\): the Bot API refused the token, check TRADELOOP_TELEGRAM_TOKEN/,
      );
      expect(wrong.logs()).not.toContain('another-token');
      const gone = await setup({ apiBase: `http://127.0.0.1:${await closedPort()}` });
      await waitFor(() => gone.logs().includes('reading the chats failed'), 'the failure logged', 30_000);
      expect(gone.logs()).toMatch(/getUpdates: ECONNREFUSED/);
      expect(gone.logs()).not.toContain(TOKEN);
    },
  );
});
