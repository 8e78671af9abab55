/**
 * What the divergence report re-runs, taken from the recording alone: its header names the
 * strategies (with params and plugin hashes), the risk limits and the fee; its first balances
 * response gives the starting balances. A recording without the header cannot be re-run as the
 * same thing, and a plugin whose files changed since is not the strategy that ran: both are refused,
 * naming why and the fix.
 */
import { D, InputError, type MarketSymbol } from '../../src/core/index.js';
import { fingerprintStrategy } from '../../src/strategy/plugin-hash.js';
import { RiskLimitsSchema, type RiskLimits } from '../../src/risk/limits.js';
import { loadStrategy, marketsOf, resolveParams, type StrategyDefinition } from '../../src/strategy/index.js';
import { ResponseDecoder } from '../../src/venue/polling/decode.js';
import type { RecordedStrategy, RecordingRunInfo } from '../../src/venue/polling/recorder.js';
import { readRecording, readRecordingHeader } from '../../src/venue/polling/recording-reader.js';
import { parseStreamName } from '../../src/venue/polling/stream-names.js';

/** One strategy of the recorded run, loaded and checked, ready to replay. */
export interface ReplayStrategy {
  /** Its instance name in the run (what the journal calls it; the plugin's name for an unnamed entry). */
  readonly name: string;
  /**
   * The names its decisions carry in the journal: the instance name, and the plugin's own name when
   * the config gave none (the header then names the instance by its plugin spec).
   */
  readonly journalNames: readonly string[];
  readonly definition: StrategyDefinition;
  readonly params: Readonly<Record<string, unknown>>;
  readonly market: MarketSymbol;
  /** The plugin's sha256 (both the header's and this installation's, which are equal), if the header has it. */
  readonly hash?: string;
}

export interface DivergenceInputs {
  readonly run: RecordingRunInfo;
  readonly strategies: readonly ReplayStrategy[];
  readonly limits: RiskLimits;
  readonly feeBps: number;
  /** Starting balances: the recording's first balances response, else the fallback given. */
  readonly initial: Readonly<Record<string, string>>;
  readonly initialFrom: 'recording' | 'flag';
  /** Receive times of the recording's balances responses, ascending. */
  readonly balancesAt: readonly number[];
  /** First and last receive time in the recording (epoch ms). */
  readonly span: { readonly first: number; readonly last: number };
}

/** Reads and checks everything the re-run needs; plugin paths resolve against `cwd` (where the run started). */
export async function loadDivergenceInputs(
  path: string,
  cwd: string,
  fallbackInitial: Readonly<Record<string, string>>,
): Promise<DivergenceInputs> {
  const run = await readRecordingHeader(path);
  if (run === undefined) {
    throw new InputError(
      '--recording',
      `${path} has no run information in its header (strategies, params, plugin hashes, risk limits, fee), so the run cannot be re-run as it was: record with a tradeloop that writes the header (tradeloop run with streams.record), or compare by hand with tradeloop backtest --data ${path}`,
    );
  }
  if (run.strategies.length === 0)
    throw new InputError('--recording', `${path} header names no strategy: the recorded run traded nothing to compare`);
  const strategies: ReplayStrategy[] = [];
  for (const s of run.strategies) strategies.push(await loadRecordedStrategy(s, cwd));
  const limits = riskLimitsOf(run.riskLimits, path);
  const scan = await scanRecording(path);
  return {
    run,
    strategies,
    limits,
    feeBps: limits.fee_bps,
    balancesAt: scan.balancesAt,
    initial: scan.balances ?? fallbackInitial,
    initialFrom: scan.balances === undefined ? 'flag' : 'recording',
    span: { first: scan.first ?? run.startedAt ?? 0, last: scan.last ?? run.startedAt ?? 0 },
  };
}

async function loadRecordedStrategy(s: RecordedStrategy, cwd: string): Promise<ReplayStrategy> {
  const spec = s.spec ?? s.name;
  let definition: StrategyDefinition;
  try {
    definition = await loadStrategy(spec, { cwd });
  } catch (err) {
    throw new InputError(
      '--recording',
      `the recorded run's strategy ${s.name} (${spec}) cannot be loaded here: ${(err as Error).message}. Run tradeloop divergence from the folder the run was started in, with the same plugin files`,
    );
  }
  if (s.hash !== undefined) {
    let mine: string;
    try {
      mine = fingerprintStrategy(spec, cwd).hash;
    } catch {
      throw new InputError(
        '--recording',
        `the recorded run's strategy ${s.name} (${spec}) is not a plugin file or built-in here, so its hash cannot be checked against the header's ${s.hash}`,
      );
    }
    if (mine !== s.hash) {
      throw new InputError(
        '--recording',
        `strategy ${s.name} (${spec}) has changed since the run: the header's plugin hash is ${s.hash}, this installation's is ${mine}; restore the plugin files the run used (the header's "files" lists each file's sha256) to re-run the same strategy`,
      );
    }
  }
  const params = resolveParams(definition, { ...s.params }, `the recording header's params of ${s.name}`);
  const markets = marketsOf(definition, params as never);
  if (markets.length !== 1)
    throw new InputError(
      '--recording',
      `strategy ${s.name} trades ${markets.join(', ') || 'no market'}: the divergence report re-runs strategies of one market`,
    );
  // a config entry without a name runs (and journals) under the plugin's own name; the header names it by its spec
  const unnamed = s.name === spec;
  return {
    name: unnamed ? definition.name : s.name,
    journalNames: unnamed ? [definition.name, s.name] : [s.name],
    definition,
    params,
    market: markets[0]!,
    ...(s.hash !== undefined && { hash: s.hash }),
  };
}

function riskLimitsOf(raw: unknown, path: string): RiskLimits {
  const parsed = RiskLimitsSchema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new InputError(
    '--recording',
    `${path} header: run.riskLimits.${issue.path.join('.')} ${issue.message}; the header was edited or written by another tradeloop`,
  );
}

/** The recording's first and last receive times and its first balances response (available plus trading). */
async function scanRecording(
  path: string,
): Promise<{ first?: number; last?: number; balances?: Record<string, string>; balancesAt: number[] }> {
  const decoder = new ResponseDecoder();
  let first: number | undefined;
  let last: number | undefined;
  let balances: Record<string, string> | undefined;
  const balancesAt: number[] = [];
  for await (const entry of readRecording(path)) {
    first ??= entry.at;
    last = Math.max(last ?? entry.at, entry.at);
    if (entry.stream !== 'balances') continue;
    balancesAt.push(entry.at);
    if (balances !== undefined) continue;
    const id = parseStreamName(entry.stream);
    try {
      const account = id && decoder.decode(id, entry.body, entry.at).account;
      if (account?.kind === 'balances')
        balances = Object.fromEntries(account.items.map((b) => [b.asset, new D(b.available).plus(b.trading).toFixed()]));
    } catch (err) {
      throw new InputError('--recording', `${path} line ${entry.line}: the balances response does not decode (${(err as Error).message})`);
    }
  }
  return {
    ...(first !== undefined && { first }),
    ...(last !== undefined && { last }),
    ...(balances && { balances }),
    balancesAt: balancesAt.sort((a, b) => a - b),
  };
}
