/**
 * Webhooks from a real `tradeloop run` on the embedded sandbox: with TRADELOOP_NOTIFY_URL and its
 * secret exported, a receiver on 127.0.0.1 gets run-start, the fill of the probe's market buy and
 * run-stop (with the summary), each signed; neither the URL nor the secret shows in the output.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useTradeloop, waitFor } from '../support/reliability-procs.js';
import { uiConfig } from './ops-cli.js';

const start = useTradeloop();
const SECRET = 'cli-webhook-secret-0123456789';

describe('tradeloop run with TRADELOOP_NOTIFY_URL', () => {
  it('sends run-start, each fill and run-stop, signed, and never prints the URL or the secret', { timeout: 180_000 }, async () => {
    const got: { headers: IncomingMessage['headers']; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/secret-path-abc123`;
    const { cwd, config } = uiConfig(['notify: { events: [run-start, fill, run-stop], timeout_ms: 2000 }']);
    const proc = start(['run', '--config', config, '--duration', '6s', '--json'], cwd, {
      TRADELOOP_NOTIFY_URL: url,
      TRADELOOP_NOTIFY_SECRET: SECRET,
    });
    const kinds = (): string[] => got.map((g) => g.headers['x-tradeloop-event'] as string);
    await waitFor(() => kinds().includes('fill'), 'a fill notification', 30_000);
    expect(await proc.exit, proc.err().slice(-2000)).toBe(0);
    await waitFor(() => kinds().includes('run-stop'), 'run-stop', 5_000);
    server.close();
    expect(kinds()[0]).toBe('run-start');
    expect(kinds().at(-1)).toBe('run-stop');
    expect(new Set(kinds())).toEqual(new Set(['run-start', 'fill', 'run-stop']));
    for (const g of got) {
      const ts = g.headers['x-tradeloop-timestamp'] as string;
      expect(g.headers['x-tradeloop-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(`${ts}.${g.body}`).digest('hex')}`);
    }
    const stop = JSON.parse(got.at(-1)?.body ?? '{}') as { data: { reason: string; fills: number } };
    expect(stop.data.reason).toMatch(/--duration/);
    expect(stop.data.fills).toBeGreaterThan(0);
    const output = proc.out() + proc.err();
    expect(output).not.toContain('secret-path-abc123');
    expect(output).not.toContain(SECRET);
  });
});
