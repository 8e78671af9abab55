import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { D, type Dec } from '../../src/core/index.js';
import { Journal } from '../../src/exec/index.js';
import { fetchTruth, journalReady, tempDir, tradeloop, waitFor, type Proc } from '../support/reliability-procs.js';

const PLUGIN = resolve(import.meta.dirname, 'paper-real-churn.ts');
const CLIENT_ID = 'paper-bot';
/** The sandbox credential's secret: given to both processes in their environment, never printed. */
const SECRET = 'canary-paper-secret-5d1c';
const UI_TOKEN = 'paper-real-dashboard-token-0123456789';

/** A proxy on 127.0.0.1 in front of the sandbox that keeps the method and path of every request. */
async function countingProxy(target: string): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const to = new URL(target);
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const up = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

interface Summary {
  readonly mode?: string;
  readonly environment?: string;
  readonly ordersPlaced: number;
  readonly fills: number;
  readonly startEquity?: string;
  readonly unresolved: number;
}

function journalFacts(file: string): {
  meta: Map<string, string>;
  fills: Array<{ fill_id: string; side: string; amount: string }>;
  open: string[];
} {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const meta = new Map(
      (db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [r.key, r.value]),
    );
    const fills = db.prepare('SELECT fill_id, side, amount FROM fills').all() as Array<{ fill_id: string; side: string; amount: string }>;
    const open = (db.prepare("SELECT ref_id FROM intents WHERE state = 'open'").all() as Array<{ ref_id: string }>).map((r) => r.ref_id);
    return { meta, fills, open };
  } finally {
    db.close();
  }
}

/** The status of each quote execution the journal holds. */
function quoteExecutions(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT status FROM intents WHERE kind = 'execute-quote'").all() as Array<{ status: string }>).map((r) => r.status);
  } finally {
    db.close();
  }
}

/** BTC bought minus sold, by the journal's fills and quote executions. */
function btcFromJournal(file: string): Dec {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const fills = db.prepare('SELECT side, amount FROM fills').all() as Array<{ side: string; amount: string }>;
    const fromFills = fills.reduce((s, f) => (f.side === 'BUY' ? s.plus(f.amount) : s.minus(f.amount)), new D(0));
    // a settled quote execution's base amount is its row's amount filled
    const quotes = db
      .prepare("SELECT side, amount_filled FROM intents WHERE kind = 'execute-quote' AND status = 'SETTLED'")
      .all() as Array<{ side: string; amount_filled: string }>;
    const btc = quotes.reduce((s, q) => (q.side === 'BUY' ? s.plus(q.amount_filled) : s.minus(q.amount_filled)), fromFills);
    return btc;
  } finally {
    db.close();
  }
}

describe('tradeloop run --paper on real data (a sandbox-environment config against a sandbox process)', () => {
  let sandbox: Proc;
  let sandboxUrl: string;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('paper-real');
    sandbox = tradeloop(['sandbox', '--port', '0', '--seed', '11', '--truth', '--client-id', CLIENT_ID], dir, {
      TRADELOOP_SANDBOX_CLIENT_SECRET: SECRET,
    });
    const re = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
    await waitFor(() => re.test(sandbox.out()), `the sandbox (${sandbox.err().slice(-300)})`, 30_000);
    sandboxUrl = re.exec(sandbox.out())![1]!;
    proxy = await countingProxy(sandboxUrl);
  }, 40_000);

  afterAll(async () => {
    proxy?.server.close();
    sandbox?.child.kill('SIGTERM');
    await sandbox?.exit;
  });

  const config = (journal: string, record: string, scopes?: readonly string[], ui = false, environment = 'sandbox'): string => {
    const file = join(dir, 'paper.yaml');
    writeFileSync(
      file,
      [
        `environment: ${environment}`,
        'api:',
        `  base_url: ${proxy.url}/v2`,
        `  token_url: ${proxy.url}/oauth2/token`,
        ...(scopes ? [`  scopes: [${scopes.join(', ')}]`] : []),
        'strategies:',
        `  - plugin: ${PLUGIN}`,
        'streams: { prices_ms: 500, book_ms: 500, trades_ms: 1000, warmup_points: 3, record: ' + record + ' }',
        'risk: { max_intents_per_minute: 10000, stale_after_ms: 60000 }',
        'run: { cancel_on_exit: false }',
        'paper: { funding: { USD: 5000 } }',
        `journal: { path: ${journal} }`,
        ...(ui ? ['ui: { port: 0 }'] : []),
      ].join('\n'),
    );
    return file;
  };

  const paperRun = async (
    file: string,
    duration: string,
    during?: (run: Proc) => Promise<void>,
    json = true,
    extra: readonly string[] = [],
  ): Promise<{ summary: Summary; err: string; out: string }> => {
    const run = tradeloop(['run', '--config', file, '--paper', '--duration', duration, ...(json ? ['--json'] : []), ...extra], dir, {
      TRADELOOP_CLIENT_ID: CLIENT_ID,
      TRADELOOP_CLIENT_SECRET: SECRET,
      TRADELOOP_UI_TOKEN: UI_TOKEN,
    });
    await during?.(run);
    const code = await run.exit;
    expect(code, run.err().slice(-3000)).toBe(0);
    expect(run.out() + run.err()).not.toContain(SECRET);
    return {
      summary: json ? (JSON.parse(run.out().trim().split('\n').at(-1) ?? '{}') as Summary) : ({} as Summary),
      err: run.err(),
      out: run.out(),
    };
  };

  it(
    "fills on the platform's books and quotes without one write to the platform, labelled paper, and a restart continues the journal",
    { timeout: 120_000 },
    async () => {
      const journal = join(dir, 'journal.sqlite');
      const file = config(journal, join(dir, 'first.jsonl'));
      const first = await paperRun(file, '6s');
      expect(first.summary.mode).toBe('paper');
      expect(first.summary.environment).toBe('sandbox (PAPER on real data)');
      expect(first.summary.ordersPlaced).toBeGreaterThan(0);
      expect(first.summary.fills).toBeGreaterThan(0);
      expect(first.summary.unresolved).toBe(0);
      expect(first.err).toMatch(/PAPER on real data: a new paper account with 5000 USD/);
      expect(first.err).toMatch(/trading paper-real-churn on BTCUSD in sandbox \(PAPER on real data\)/);

      // the platform saw reads only: market data and the token (no order, quote execution, transfer, or account read)
      const writes = proxy.seen.filter((r) => !/^GET /.test(r) && r !== 'POST /oauth2/token');
      expect(writes).toEqual([]);
      expect(proxy.seen.filter((r) => /\/(orders|quote-executions|transfers|executions|balances)/.test(r))).toEqual([]);
      expect(proxy.seen.some((r) => /order-book/.test(r))).toBe(true);
      expect(proxy.seen.some((r) => /GET \/v2\/quotes/.test(r))).toBe(true);
      // the public trades too (streams.trades_ms): they reach the paper venue, and the recording
      expect(proxy.seen.some((r) => /GET \/v2\/markets\/BTCUSD\/recent-executions/.test(r))).toBe(true);
      const truth = (await fetchTruth(sandboxUrl)) as { orders: unknown[]; executions: unknown[]; quote_executions?: unknown[] };
      expect(truth.orders).toEqual([]);
      expect(truth.executions).toEqual([]);
      expect(truth.quote_executions ?? []).toEqual([]);

      // the journal: fills happened, labelled paper, the resting buy kept open in the paper account
      const after1 = journalFacts(journal);
      // (a fill of the last second is journaled by the exit's last read, after the summary's count)
      expect(after1.fills.length).toBeGreaterThanOrEqual(first.summary.fills);
      expect(after1.meta.get('environment')).toBe('sandbox (PAPER on real data)');
      const account1 = JSON.parse(after1.meta.get('paper_account') ?? '{}') as {
        balances: Record<string, string>;
        orders: Array<{ status: string; request: { refId: string } }>;
      };
      const resting = account1.orders.filter((o) => o.status === 'OPEN').map((o) => o.request.refId);
      expect(resting.length).toBeGreaterThan(0);
      expect(after1.open).toEqual(expect.arrayContaining(resting));
      // the strategy's one quote execution settled at a quote the platform offered, in the paper account only
      expect(quoteExecutions(journal)).toEqual(['SETTLED']);
      // positions without double counting: the paper account holds what the journal's fills add up to
      expect(new D(account1.balances.BTC ?? '0').eq(btcFromJournal(journal))).toBe(true);

      // the recording says what the run was
      const header = JSON.parse(readFileSync(join(dir, 'first.jsonl'), 'utf8').split('\n')[0]!) as { run?: { environment?: string } };
      expect(header.run?.environment).toBe('sandbox (PAPER on real data)');

      // the recording replays in a backtest on the same fill rules (it holds the books the paper venue filled on)
      const replay = tradeloop(
        ['backtest', '--data', join(dir, 'first.jsonl'), '--strategy', PLUGIN, '--initial', 'USD=5000', '--json'],
        dir,
      );
      expect(await replay.exit, replay.err().slice(-2000)).toBe(0);
      const replayed = JSON.parse(replay.out().trim().split('\n').at(-1) ?? '{}') as {
        orders?: { fills?: number };
        manifest?: { fill_model?: string };
      };
      expect(replayed.manifest?.fill_model).toBe('book');
      expect(replayed.orders?.fills).toBeGreaterThan(0);
      process.stdout.write(
        `paper run: ${after1.fills.length} fill(s) journaled; its recording replayed on the book model: ${replayed.orders?.fills} fill(s)\n`,
      );

      // a second run continues the paper journal: the account, the resting order, the start equity
      // (with the dashboard on: its status says paper too)
      let status: { environment?: string; venue?: string } = {};
      const second = await paperRun(config(journal, join(dir, 'second.jsonl'), undefined, true), '6s', async (run) => {
        const re = /dashboard: (http:\/\/127\.0\.0\.1:\d+)/;
        await waitFor(() => re.test(run.err()), 'the dashboard', 20_000);
        const res = await fetch(`${re.exec(run.err())![1]!}/api/status`, { headers: { authorization: `Bearer ${UI_TOKEN}` } });
        status = (await res.json()) as typeof status;
      });
      expect(status).toMatchObject({ environment: 'sandbox (PAPER on real data)', venue: 'paper' });
      expect(second.err).toMatch(/continuing the paper account kept in the journal/);
      expect(second.summary.startEquity).toBe(first.summary.startEquity);
      expect(second.summary.fills).toBeGreaterThan(0);
      const after2 = journalFacts(journal);
      expect(after2.fills.length).toBeGreaterThanOrEqual(after1.fills.length + second.summary.fills);
      expect(after2.fills.map((f) => f.fill_id)).toEqual(expect.arrayContaining(after1.fills.map((f) => f.fill_id)));
      expect(after2.open).toEqual(expect.arrayContaining(resting));
      const account2 = JSON.parse(after2.meta.get('paper_account') ?? '{}') as {
        balances: Record<string, string>;
        orders: Array<{ status: string; request: { refId: string } }>;
      };
      expect(account2.orders.filter((o) => resting.includes(o.request.refId)).map((o) => o.status)).toEqual(resting.map(() => 'OPEN'));
      expect(new D(account2.balances.BTC ?? '0').eq(btcFromJournal(journal))).toBe(true);
      expect(proxy.seen.filter((r) => !/^GET /.test(r) && r !== 'POST /oauth2/token')).toEqual([]);
      expect((await fetchTruth(sandboxUrl)).orders).toEqual([]);
    },
  );

  it('says in words when the credential cannot read quotes, and trades on without them', { timeout: 60_000 }, async () => {
    const file = config(join(dir, 'no-quotes.sqlite'), join(dir, 'no-quotes.jsonl'), [
      'exchange:historical_prices',
      'funding:read_profile',
    ]);
    const run = await paperRun(file, '3s', undefined, false);
    expect(run.err).toMatch(
      /PAPER on real data: quotes cannot be read from sandbox \(.+\): execute-quote intents find no quote until they can; .*exchange:read_quote scope/,
    );
    expect(run.err.match(/quotes cannot be read/g)).toHaveLength(1);
    // the summary for people says what the run was in its first line
    expect(run.out).toMatch(
      /^run summary: sandbox \(PAPER on real data\) \(fills simulated on the platform's books and quotes; no order, quote execution or transfer was sent to it\)\n/,
    );
  });

  it('--fresh moves a paper journal (with its paper account) to the archive and starts a new account', { timeout: 60_000 }, async () => {
    const journal = join(dir, 'fresh.sqlite');
    const file = config(journal, join(dir, 'fresh.jsonl'));
    await paperRun(file, '2s');
    const before = journalFacts(journal).meta.get('paper_account');
    expect(before).toBeDefined();
    const fresh = await paperRun(file, '2s', undefined, true, ['--fresh']);
    const moved = /--fresh: the paper journal \(and its paper account\) moved to ([^\s"]+)/.exec(fresh.err)?.[1];
    expect(moved, fresh.err.slice(-2000)).toBeDefined();
    expect(journalFacts(join(moved!, 'fresh.sqlite')).meta.get('paper_account')).toBe(before);
    expect(fresh.err).toMatch(/PAPER on real data: a new paper account with 5000 USD/);

    // a live journal is not a paper one: --fresh --paper leaves it where it is
    const live = join(dir, 'live.sqlite');
    const j = new Journal(live);
    j.setMeta('environment', 'sandbox');
    j.close();
    const refused = tradeloop(['run', '--config', config(live, join(dir, 'live.jsonl')), '--paper', '--fresh', '--duration', '1s'], dir, {
      TRADELOOP_CLIENT_ID: CLIENT_ID,
      TRADELOOP_CLIENT_SECRET: SECRET,
    });
    expect(await refused.exit).toBe(2);
    expect(refused.err()).toMatch(/--fresh: .*live\.sqlite is the journal of sandbox, not a paper one/);
    expect(journalFacts(live).meta.get('environment')).toBe('sandbox');
  });

  it(
    "in local with api.base_url (a sandbox of our own) --paper is paper on that sandbox's data too: nothing written to it",
    { timeout: 60_000 },
    async () => {
      const from = proxy.seen.length;
      const journal = join(dir, 'local.sqlite');
      const run = await paperRun(config(journal, join(dir, 'local.jsonl'), undefined, false, 'local'), '5s');
      expect(run.summary).toMatchObject({ mode: 'paper', environment: 'local (PAPER on real data)' });
      expect(run.summary.fills).toBeGreaterThan(0);
      const seen = proxy.seen.slice(from);
      expect(seen.some((r) => /order-book/.test(r))).toBe(true);
      expect(seen.filter((r) => !/^GET /.test(r) && r !== 'POST /oauth2/token')).toEqual([]);
      expect((await fetchTruth(sandboxUrl)).orders).toEqual([]);
      expect(journalFacts(journal).meta.get('environment')).toBe('local (PAPER on real data)');
    },
  );

  it('killed with SIGKILL mid-run, a restart continues the paper account with every fill counted once', { timeout: 90_000 }, async () => {
    const journal = join(dir, 'killed.sqlite');
    const file = config(journal, join(dir, 'killed.jsonl'));
    const killed = tradeloop(['run', '--config', file, '--paper', '--duration', '60s', '--json'], dir, {
      TRADELOOP_CLIENT_ID: CLIENT_ID,
      TRADELOOP_CLIENT_SECRET: SECRET,
    });
    await waitFor(
      () => journalReady(journal) && journalFacts(journal).fills.length >= 4,
      `four paper fills (${killed.err().slice(-500)})`,
      40_000,
    );
    killed.child.kill('SIGKILL');
    await killed.exit;
    const after = await paperRun(file, '3s');
    expect(after.err).toMatch(/continuing the paper account kept in the journal/);
    const facts = journalFacts(journal);
    expect(new Set(facts.fills.map((f) => f.fill_id)).size).toBe(facts.fills.length);
    const account = JSON.parse(facts.meta.get('paper_account') ?? '{}') as { balances: Record<string, string> };
    expect(new D(account.balances.BTC ?? '0').eq(btcFromJournal(journal))).toBe(true);
    expect(after.summary.unresolved).toBe(0);
  });
});
