import { z } from 'zod';
import { isTradingMarket, TRADING_MARKETS } from '../core/markets.js';
import { forbiddenKeyMessage, forbiddenKeyPaths } from './forbidden-keys.js';
import { checkRedisUrl } from './redis-url.js';
import { decimalString, RiskLimitsSchema } from './risk-schema.js';

/**
 * The configuration schema. YAML files in `config/` are validated against it; unknown keys are
 * errors (a typo must not silently fall back to a default). Secrets are never read from files.
 */
const positiveMs = z.number().int().positive();

export const ApiConfigSchema = z
  .object({
    /** Overrides the environment's API base URL (must end in /v2). */
    base_url: z.string().url().optional(),
    /** Overrides the environment's token URL. */
    token_url: z.string().url().optional(),
    /** Scopes to request; defaults to what a trading bot needs. */
    scopes: z.array(z.string().min(1)).optional(),
    connect_timeout_ms: positiveMs.default(5_000),
    headers_timeout_ms: positiveMs.default(10_000),
    body_timeout_ms: positiveMs.default(10_000),
    max_retries: z.number().int().min(0).max(10).default(4),
    /** Pause of every budget after a 429 without Retry-After (the platform blocks for 5 minutes). */
    rate_limit_penalty_ms: z.number().int().min(0).default(300_000),
    /**
     * Connection failures in a row (refused, reset, no response in time) after which the venue is
     * unreachable: requests fail fast and one read a second probes until the venue answers.
     */
    breaker_failures: z
      .number({ error: 'a whole number of connection failures, e.g. 5' })
      .int('a whole number of connection failures, e.g. 5')
      .min(1, 'at least 1 connection failure (5 is the default)')
      .max(100, 'at most 100 connection failures (5 is the default)')
      .default(5),
    /**
     * redis://HOST:PORT (or rediss://): one request budget shared by every bot process naming the
     * same store; the password only from TRADELOOP_REDIS_PASSWORD, never in the URL.
     */
    rate_limit_store: z
      .string()
      .superRefine((u, ctx) => {
        // the parser `run` and the queue use, so what passes this check also connects
        const r = checkRedisUrl(u);
        if ('problem' in r) ctx.addIssue({ code: 'custom', message: r.problem });
      })
      .optional(),
  })
  .strict();

/** A client id the sandbox accepts (`local.client_id`, `tradeloop sandbox --client-id`): no whitespace. */
export const CLIENT_ID_PATTERN = /^\S+$/;

export const LocalSandboxConfigSchema = z
  .object({
    port: z.number().int().min(0).max(65_535).default(0),
    seed: z.number().int().default(42),
    /** Simulated time runs this many times faster than real time. */
    speed: z.number().positive().default(1),
    /**
     * Order-entry delay, ms of simulated time: above 0 a new order is answered SUBMITTED and entered
     * (matched, or OPEN) at the first tick at or after created_at + delay; 0 enters it at once.
     */
    submit_delay_ms: z
      .number()
      .int('a whole number of milliseconds, e.g. 500')
      .min(0, '0 or more milliseconds (0 enters orders at once)')
      .max(600_000, 'at most 600000 ms (10 minutes)')
      .default(0),
    /** Funds put in the default profile at start, asset → decimal string. */
    funding: z.record(z.string(), decimalString).default({ USD: '100000' }),
    /** Injected faults, as `--faults` (e.g. "latency=50ms,error5xx=0.05"); off when absent. */
    faults: z.string().optional(),
    /**
     * The sandbox's world, restored at start: SQLite saved before every answer, or a whole snapshot
     * saved every 10 s and on exit when it ends in `.json`. `tradeloop run` defaults it to a file
     * beside the journal (so a restarted run continues its world); `tradeloop sandbox` to none.
     */
    state: z.string().min(1).optional(),
    /** The platform's rate limits: "on", "off" (default) or "window=10s,penalty=30s,scale=0.1". */
    rate_limits: z.string().default('off'),
    /** Serve GET /__sandbox/truth to loopback callers. */
    truth_api: z.boolean().default(false),
    /**
     * Response shapes where the OpenAPI file's schemas and examples disagree (ListTickers,
     * ListPrices, ListHistoricalPrices): "schema" (default) or "examples".
     */
    shapes: z
      .enum(['schema', 'examples'], { message: 'use "schema" (the OpenAPI schemas, default) or "examples" (the spec\'s examples)' })
      .default('schema'),
    /** Serve identity documents (upload URLs, list): a closed beta on the platform, so 403 unless true. */
    documents: z.boolean().default(false),
    /**
     * Client id `tradeloop sandbox` accepts instead of the local development credential; its secret
     * comes only from TRADELOOP_SANDBOX_CLIENT_SECRET in the environment.
     */
    client_id: z.string().regex(CLIENT_ID_PATTERN, 'must be a client id without spaces, e.g. my-bot').optional(),
    /** Refused: secrets are never read from files. */
    client_secret: z
      .custom<never>(
        () => false,
        'secrets are never read from files: remove local.client_secret and export TRADELOOP_SANDBOX_CLIENT_SECRET instead',
      )
      .optional(),
  })
  .strict();

export const LogConfigSchema = z
  .object({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Human-readable lines (default: on a terminal and in a log file) or JSON lines (false). */
    pretty: z.boolean().optional(),
    /**
     * Append logs to this file instead of stderr. `tradeloop run` with its live panel on a terminal
     * logs to a file always (the panel owns the screen): this one, else `run.log` beside the journal.
     */
    file: z.string().min(1).optional(),
  })
  .strict();

export const JournalConfigSchema = z
  .object({
    /** SQLite write-ahead journal of intents, orders and fills. */
    path: z.string().min(1).default('.tradeloop/journal.sqlite'),
  })
  .strict();

export const StrategyConfigSchema = z
  .object({
    /** Built-in name (sma-cross), path to a .ts/.js plugin, or package name. */
    plugin: z.string().min(1),
    /** Instance name, unique in the run (default: the plugin's name). */
    name: z
      .string()
      .regex(/^[a-z][a-z0-9-]*$/, 'must be kebab-case (lower-case letters, digits and -, starting with a letter), e.g. sma-btc')
      .optional(),
    /** Parameters, validated against the plugin's own schema when it loads. */
    params: z
      .unknown()
      .superRefine((raw, ctx) => {
        // checked before the record reads the section: it would drop a __proto__ key without a word
        for (const path of forbiddenKeyPaths(raw))
          ctx.addIssue({ code: 'custom', path, message: forbiddenKeyMessage(String(path[path.length - 1])) });
      })
      .pipe(z.record(z.string(), z.unknown()))
      .default({}),
    /**
     * Capital of this strategy: an amount of the quote asset ("5000") or a share of its balance at
     * start ("25%"); its positions' cost and open buys stay within it (ALLOCATION). Default: none.
     */
    allocation: z
      .string({ error: 'must be an amount of the quote asset, e.g. "5000", or a share of its balance at start, e.g. "25%"' })
      .regex(/^([0-9]*\.?[0-9]+%?)$/, 'must be an amount of the quote asset, e.g. "5000", or a share of its balance at start, e.g. "25%"')
      .refine(
        (v) => Number(v.replace('%', '')) > 0 && (!v.endsWith('%') || Number(v.slice(0, -1)) <= 100),
        'must be more than 0 (a share at most 100%)',
      )
      .optional(),
    /**
     * Balances held by no strategy (a deposit, a position from before this journal) that become this
     * strategy's own position at start, by market: an amount of the base asset (`BTCUSD: "0.25"`,
     * valued at the market's price at start) or `{ amount, price }` (valued at that price). Assigned
     * once and journaled; no more than is unassigned.
     */
    holdings: z
      .unknown()
      .superRefine((raw, ctx) => {
        // as for params: the record below would drop a __proto__ key without a word
        for (const path of forbiddenKeyPaths(raw))
          ctx.addIssue({ code: 'custom', path, message: forbiddenKeyMessage(String(path[path.length - 1])) });
      })
      .pipe(
        z
          .record(
            z.string().refine(isTradingMarket, {
              error: (i) => `${String(i.input)} is not a trading market of the platform: write one of ${TRADING_MARKETS.join(', ')}`,
            }),
            z.union([decimalString, z.object({ amount: decimalString, price: decimalString.optional() }).strict()], {
              error: 'must be an amount of the base asset, e.g. "0.25", or { amount: "0.25", price: "61000" } (the cost basis per unit)',
            }),
          )
          .superRefine((h, ctx) => {
            for (const [market, v] of Object.entries(h)) {
              const amount = typeof v === 'string' ? v : v.amount;
              if (!(Number(amount) > 0))
                ctx.addIssue({
                  code: 'custom',
                  path: typeof v === 'string' ? [market] : [market, 'amount'],
                  message: `${amount} is not more than 0: write the amount of the base asset this strategy holds`,
                });
              if (typeof v !== 'string' && v.price !== undefined && !(Number(v.price) > 0))
                ctx.addIssue({
                  code: 'custom',
                  path: [market, 'price'],
                  message: `${v.price} is not more than 0: write the cost basis per unit, in the quote asset`,
                });
            }
          }),
      )
      .optional(),
  })
  .strict();

/**
 * Poll intervals per stream, staleness, history, warm-up and recording. `fills_ms` and
 * `quote_executions_ms` default to `orders_ms` (they answer the same question: what happened to the
 * bot's trades), so a file that sets only `orders_ms` moves all three.
 */
export const StreamsConfigSchema = z
  .object({
    prices_ms: z.number().int().min(100).default(1_000),
    /**
     * Tickers and books: polled every 2000 and 1000 ms for the markets whose strategies ask for them;
     * set here, they are polled (and recorded) for every market of the run's strategies, whatever
     * those ask for, so a recording holds the books a later replay fills on.
     */
    ticker_ms: z.number().int().min(100).optional(),
    book_ms: z.number().int().min(100).optional(),
    quotes_ms: z.number().int().min(1_000).default(1_000),
    balances_ms: z.number().int().min(100).default(2_000),
    /** Open orders (ListProfileOrders status=OPEN). */
    orders_ms: z.number().int().min(100).default(1_000),
    /** New fills (ListProfileExecutions); default: `orders_ms`. */
    fills_ms: z.number().int().min(100).optional(),
    /** Pending quote executions (ListQuoteExecutions status=CREATED); default: `orders_ms`. */
    quote_executions_ms: z.number().int().min(100).optional(),
    /**
     * Recent trades of each subscribed market (ListRecentExecutions), off unless set: a recording
     * then holds the trades a book replay fills resting limits on. Only new trades are recorded.
     */
    trades_ms: z
      .number()
      .int('a whole number of milliseconds, e.g. 1000')
      .min(250, 'at least 250 ms (the platform allows 10 requests a second for the trades of all markets)')
      .optional(),
    /** Market data older than this is marked stale. */
    stale_after_ms: z.number().int().positive().default(10_000),
    /** Price points kept per market. */
    history_capacity: z.number().int().min(16).max(1_000_000).default(2_048),
    /** Historical price points loaded per market before the first live decision. */
    warmup_points: z.number().int().min(0).max(1_000).default(200),
    /** Record every response the streams receive to this file (JSON lines), for replay. */
    record: z.string().min(1).optional(),
  })
  .strict()
  .transform((s) => ({ ...s, fills_ms: s.fills_ms ?? s.orders_ms, quote_executions_ms: s.quote_executions_ms ?? s.orders_ms }));

export const RunConfigSchema = z
  .object({
    /** Profile the bot trades from: a profile id, or "default". */
    profile: z.string().min(1).default('default'),
    /** Cancel the bot's open orders on shutdown. */
    cancel_on_exit: z.boolean().default(true),
    /** How long exit cancels may take (cancel, retry, re-read until closed) before the run names what is left open. */
    exit_timeout_ms: z
      .number()
      .int('a whole number of milliseconds')
      .min(1_000, 'at least 1000 (one second)')
      .max(600_000, 'at most 600000 (ten minutes)')
      .default(30_000),
    /**
     * What a start does with our orders a previous run left open, and venue records with our prefix
     * the journal lacks, once journaled: cancel them, adopt them, or halt trading. Default: `cancel`,
     * or `adopt` when `cancel_on_exit` is false (such orders were left open on purpose).
     */
    orphans: z.enum(['cancel', 'adopt', 'halt']).optional(),
    /** Prefix of intent ids (wire ref_ids); defaults to one made per journal. */
    ref_prefix: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,40}$/, 'must be 1–40 letters, digits or _.:- (no spaces), e.g. bot1')
      .optional(),
  })
  .strict();

/**
 * `tradeloop run --paper` in the sandbox or production environment: fills are simulated against the
 * platform's live order books and quotes, starting from these balances (the real account is never
 * read or written). In the local environment the embedded sandbox's `local.funding` serves instead.
 */
export const PaperConfigSchema = z
  .object({
    /** The paper account's starting balances, asset → decimal string (a restart continues the journal's). */
    funding: z.record(z.string(), decimalString).default({ USD: '100000' }),
    /** Decision-to-venue latency, ms: an order meets the book in force when it arrives (placed time plus this). */
    latency_ms: z
      .number()
      .int('a whole number of milliseconds, e.g. 250')
      .min(0, '0 or more milliseconds (0: the latest book when the order is placed)')
      .max(60_000, 'at most 60000 ms')
      .default(0),
  })
  .strict();

/**
 * Whether `host` is an address that binds every interface, judged on the address it parses to, not
 * its spelling: the system reads `0`, `0x0`, `0.0` and `000.0.0.0` as 0.0.0.0 (inet_aton's forms, which
 * the URL parser shares), and `::0`, `0:0:0:0:0:0:0:0`, `[::]`, `::0.0.0.0` as ::; the IPv4-mapped
 * `::ffff:0.0.0.0` binds every IPv4 interface. A name is judged when it is resolved (the
 * operations server refuses a name that resolves to a wildcard).
 */
export function isWildcardHost(host: string): boolean {
  const h = host.trim();
  const bare = h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
  let parsed: string;
  try {
    parsed = new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname;
  } catch {
    return false;
  }
  return parsed === '0.0.0.0' || parsed === '[::]' || parsed === '[::ffff:0:0]';
}

/** `tradeloop run --ui`, or this section: the dashboard, control API and /metrics of a running bot. */
export const UiConfigSchema = z
  .object({
    /** Off keeps the section but serves nothing (`--ui` still turns it on). */
    enabled: z.boolean().default(true),
    /** Address to bind: loopback by default; a wildcard is refused (bind the one address to serve on). */
    host: z
      .string()
      .min(1)
      .refine(
        (h) => !isWildcardHost(h),
        "bind one address (e.g. 127.0.0.1, the default, or this machine's LAN address), not a wildcard (0.0.0.0, ::, or another spelling of them such as 0 or ::0): Host checks need the address clients use",
      )
      .default('127.0.0.1'),
    /** 0 picks a free port (printed with the URL). */
    port: z
      .number()
      .int('a whole port number, e.g. 8787')
      .min(0, '0 (a free port) to 65535')
      .max(65_535, '0 (a free port) to 65535')
      .default(8787),
    /** Refused: the token comes only from TRADELOOP_UI_TOKEN in the environment. */
    token: z
      .custom<never>(
        () => false,
        'secrets are never read from files: remove ui.token and export TRADELOOP_UI_TOKEN instead (or leave it unset for a token made per run)',
      )
      .optional(),
  })
  .strict();

/** Events a webhook can be sent for (`notify.events`). */
export const NOTIFY_EVENTS = [
  'fill',
  'kill-switch',
  'unresolved',
  'strategy-stopped',
  'venue-unreachable',
  'journal-failed',
  'run-start',
  'run-stop',
] as const;

/**
 * Webhook notifications; on when TRADELOOP_NOTIFY_URL is set (its HMAC secret in
 * TRADELOOP_NOTIFY_SECRET), tuned here. Delivery never blocks trading: queued, retried with backoff.
 */
export const NotifyConfigSchema = z
  .object({
    /** Which events are sent (default: all). */
    events: z.array(z.enum(NOTIFY_EVENTS, { message: `one of ${NOTIFY_EVENTS.join(', ')}` })).default([...NOTIFY_EVENTS]),
    /** Notifications waiting at most; past it the oldest is dropped (and counted in /metrics). */
    queue_size: z.number().int().min(1, 'at least 1').max(100_000, 'at most 100000').default(1_000),
    /** How long one delivery may take before it counts as failed. */
    timeout_ms: z.number().int().min(100, 'at least 100 ms').max(120_000, 'at most 120000 ms').default(5_000),
    /** Attempts per notification (the first and its retries, backing off 1 s, 2 s, 4 s … up to 60 s). */
    max_attempts: z.number().int().min(1, 'at least 1').max(20, 'at most 20').default(6),
    url: z
      .custom<never>(() => false, 'secrets are never read from files: remove notify.url and export TRADELOOP_NOTIFY_URL instead')
      .optional(),
    secret: z
      .custom<never>(() => false, 'secrets are never read from files: remove notify.secret and export TRADELOOP_NOTIFY_SECRET instead')
      .optional(),
  })
  .strict();

export const ConfigSchema = z
  .object({
    environment: z.enum(['local', 'sandbox', 'production']).default('local'),
    /** Must be true to run against production; guards against accidents. */
    confirm_production: z.boolean().default(false),
    api: ApiConfigSchema.default(ApiConfigSchema.parse({})),
    local: LocalSandboxConfigSchema.default(LocalSandboxConfigSchema.parse({})),
    log: LogConfigSchema.default(LogConfigSchema.parse({})),
    journal: JournalConfigSchema.default(JournalConfigSchema.parse({})),
    risk: RiskLimitsSchema.default(RiskLimitsSchema.parse({})),
    strategies: z.array(StrategyConfigSchema).default([]),
    streams: StreamsConfigSchema.default(StreamsConfigSchema.parse({})),
    run: RunConfigSchema.default(RunConfigSchema.parse({})),
    paper: PaperConfigSchema.default(PaperConfigSchema.parse({})),
    ui: UiConfigSchema.optional(),
    notify: NotifyConfigSchema.optional(),
  })
  .strict()
  .superRefine((cfg, ctx) => {
    if (cfg.environment === 'production' && !cfg.confirm_production) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirm_production'],
        message: 'environment is production: set confirm_production: true to trade real money',
      });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;
export type ApiConfig = z.infer<typeof ApiConfigSchema>;
export type UiConfig = z.infer<typeof UiConfigSchema>;
export type PaperConfig = z.infer<typeof PaperConfigSchema>;
export type NotifyConfig = z.infer<typeof NotifyConfigSchema>;
export type StrategyConfig = z.infer<typeof StrategyConfigSchema>;
