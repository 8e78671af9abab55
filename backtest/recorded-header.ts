/**
 * The run information a recording's header holds (strategies, params, plugin hashes, risk limits,
 * fees, tradeloop version, warm-up history): built for a recorder from what a run loaded, and told
 * back to a person by `tradeloop backtest --data RECORDING`.
 */
import { fingerprintStrategy, tradeloopVersion } from '../src/queue/plugin-hash.js';
import type { RecordedStrategy, RecordedWarmUp, RecordingRunInfo } from '../src/venue/polling/recorder.js';

export interface RunInfoInput {
  readonly strategies: readonly { readonly spec: string; readonly name: string; readonly params: Readonly<Record<string, unknown>> }[];
  readonly startedAt: number;
  readonly environment?: string;
  readonly riskLimits?: unknown;
  readonly fees?: unknown;
  readonly warmUp?: RecordedWarmUp;
  /** Folder plugin paths are resolved against (default the working directory). */
  readonly cwd?: string;
}

/** The header's run information; a strategy whose file cannot be found is kept without hashes. */
export function buildRunInfo(i: RunInfoInput): RecordingRunInfo {
  const strategies = i.strategies.map((s): RecordedStrategy => {
    const base = { name: s.name, params: jsonParams(s.params), spec: s.spec };
    try {
      const f = fingerprintStrategy(s.spec, i.cwd);
      return { ...base, builtin: f.builtin, hash: f.hash, files: f.files };
    } catch {
      return base;
    }
  });
  return {
    tradeloopVersion: tradeloopVersion(), startedAt: i.startedAt, ...(i.environment !== undefined && { environment: i.environment }),
    strategies, ...(i.riskLimits !== undefined && { riskLimits: i.riskLimits }), ...(i.fees !== undefined && { fees: i.fees }),
    ...(i.warmUp !== undefined && { warmUp: i.warmUp }),
  };
}

/** Params as JSON keeps them: numbers and booleans as they are, anything else (decimals) as strings. */
function jsonParams(p: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string' || v === null ? v : String(v)]));
}

/** Lines for a person: what the recorded run was (one per strategy, then limits, fees, warm-up). */
export function describeRunInfo(run: RecordingRunInfo | undefined): string[] {
  if (run === undefined) return ['recording header: no run information (recorded before headers held it): strategies, params and limits are those given here'];
  const started = run.startedAt === undefined ? '' : ` started ${new Date(run.startedAt).toISOString()}`;
  const lines = [`recorded run: tradeloop ${run.tradeloopVersion}${run.environment === undefined ? '' : ` on ${run.environment}`}${started}`];
  for (const s of run.strategies) {
    const params = Object.entries(s.params).map(([k, v]) => `${k}=${String(v)}`).join(',');
    const plugin = s.hash === undefined ? '' : ` · ${s.builtin ? 'built-in' : `plugin ${s.spec ?? s.name}`} sha256 ${s.hash.slice(0, 12)}`;
    lines.push(`  strategy ${s.name}${params === '' ? '' : ` ${params}`}${plugin}`);
  }
  if (run.riskLimits !== undefined) lines.push(`  risk limits: ${JSON.stringify(run.riskLimits)}`);
  if (run.fees !== undefined) lines.push(`  fees: ${JSON.stringify(run.fees)}`);
  if (run.warmUp !== undefined) {
    const counts = Object.entries(run.warmUp.prices ?? {}).map(([m, p]) => `${m} ${p.length}`).join(', ');
    lines.push(`  warm-up: ${run.warmUp.points} points of ${run.warmUp.increment}${counts === '' ? '' : ` (${counts} recorded)`}`);
  }
  return lines;
}
