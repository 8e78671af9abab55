/**
 * The run information a recording's header holds (strategies, params, plugin hashes, risk limits,
 * fees, tradeloop version, warm-up), built from what a run loaded: the live bundle writes it into
 * the recorder's first line; `tradeloop backtest --data RECORDING` tells it back.
 */
import { fingerprintStrategy, tradeloopVersion } from '../strategy/plugin-hash.js';
import type { RecordedStrategy, RecordedWarmUp, RecordingRunInfo } from '../venue/polling/recorder.js';

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
    tradeloopVersion: tradeloopVersion(),
    startedAt: i.startedAt,
    ...(i.environment !== undefined && { environment: i.environment }),
    strategies,
    ...(i.riskLimits !== undefined && { riskLimits: i.riskLimits }),
    ...(i.fees !== undefined && { fees: i.fees }),
    ...(i.warmUp !== undefined && { warmUp: i.warmUp }),
  };
}

/** Params as JSON keeps them: numbers and booleans as they are, anything else (decimals) as strings. */
function jsonParams(p: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(p).map(([k, v]) => [
      k,
      typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string' || v === null ? v : String(v),
    ]),
  );
}
