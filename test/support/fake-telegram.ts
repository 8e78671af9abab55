/**
 * A fake of the Telegram Bot API on 127.0.0.1 for the chat bot's tests: getUpdates long-polls (an
 * offset acknowledges earlier updates; the request is held until an update comes or its timeout ends),
 * sendMessage records each message, and `silent` makes sendMessage never answer (a Bot API that hangs).
 * Requests with another token are answered 401, as the real API does.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentMessage {
  readonly chatId: string;
  readonly text: string;
}

export interface FakeTelegram {
  /** The base URL to give the bot (TRADELOOP_TELEGRAM_API). */
  readonly url: string;
  readonly sent: SentMessage[];
  /** sendMessage requests received (answered or not). */
  readonly sendRequests: () => number;
  /** The paths of every request (with the token, as the bot sent them: tests check where it went). */
  readonly paths: string[];
  /** When true, sendMessage is read but never answered. */
  silent: boolean;
  /** Queues a message from `chatId` for the next getUpdates. */
  push(chatId: number | string, text: string): void;
  /** Resolves when a sent message matches (polls the list; no time passes otherwise). */
  waitSent(match: (m: SentMessage) => boolean, what: string, timeoutMs?: number): Promise<SentMessage>;
  close(): Promise<void>;
}

export async function startFakeTelegram(token: string): Promise<FakeTelegram> {
  const updates: { update_id: number; message: { chat: { id: number }; text: string; date: number } }[] = [];
  const waiting = new Set<() => void>();
  const sent: SentMessage[] = [];
  const paths: string[] = [];
  let sendRequests = 0;
  let nextId = 1;
  const fake = {
    silent: false,
  };
  const answer = (res: ServerResponse, status: number, body: unknown): void => {
    if (!res.writableEnded) res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      paths.push(req.url ?? '');
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      if (!m || m[1] !== token) return answer(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const body = (raw ? JSON.parse(raw) : {}) as { offset?: number; timeout?: number; chat_id?: string | number; text?: string };
      if (m[2] === 'sendMessage') {
        sendRequests++;
        if (fake.silent) return; // never answered
        sent.push({ chatId: String(body.chat_id), text: String(body.text) });
        return answer(res, 200, { ok: true, result: { message_id: sent.length } });
      }
      if (m[2] !== 'getUpdates') return answer(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      const offset = body.offset ?? 0;
      const reply = (): boolean => {
        const ready = updates.filter((u) => u.update_id >= offset);
        if (ready.length === 0) return false;
        answer(res, 200, { ok: true, result: ready });
        return true;
      };
      // acknowledged updates are forgotten, as the real API does
      for (let i = updates.length - 1; i >= 0; i--) if ((updates[i]?.update_id ?? 0) < offset) updates.splice(i, 1);
      if (reply()) return;
      const timer = setTimeout(
        () => {
          waiting.delete(wake);
          answer(res, 200, { ok: true, result: [] });
        },
        (body.timeout ?? 0) * 1_000,
      );
      const wake = (): void => {
        if (reply()) {
          clearTimeout(timer);
          waiting.delete(wake);
        }
      };
      waiting.add(wake);
      res.on('close', () => {
        clearTimeout(timer);
        waiting.delete(wake);
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    url,
    sent,
    paths,
    sendRequests: () => sendRequests,
    push(chatId: number | string, text: string) {
      updates.push({ update_id: nextId++, message: { chat: { id: Number(chatId) }, text, date: 0 } });
      for (const w of [...waiting]) w();
    },
    async waitSent(match: (m: SentMessage) => boolean, what: string, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = sent.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no message ${what} within ${timeoutMs} ms; sent: ${JSON.stringify(sent)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}
