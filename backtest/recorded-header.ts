/**
 * The run information a recording's header holds, told back to a person by `tradeloop backtest
 * --data RECORDING` (built by src/live/recording-run-info.ts, re-exported here).
 */
import type { RecordingRunInfo } from '../src/venue/polling/recorder.js';

export { buildRunInfo, type RunInfoInput } from '../src/live/recording-run-info.js';

/** Lines for a person: what the recorded run was (one per strategy, then limits, fees, warm-up). */
export function describeRunInfo(run: RecordingRunInfo | undefined): string[] {
  if (run === undefined)
    return ['recording header: no run information (recorded before headers held it): strategies, params and limits are those given here'];
  const started = run.startedAt === undefined ? '' : ` started ${new Date(run.startedAt).toISOString()}`;
  const lines = [
    `recorded run: tradeloop ${run.tradeloopVersion}${run.environment === undefined ? '' : ` on ${run.environment}`}${started}`,
  ];
  for (const s of run.strategies) {
    const params = Object.entries(s.params)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(',');
    const plugin = s.hash === undefined ? '' : ` · ${s.builtin ? 'built-in' : `plugin ${s.spec ?? s.name}`} sha256 ${s.hash.slice(0, 12)}`;
    lines.push(`  strategy ${s.name}${params === '' ? '' : ` ${params}`}${plugin}`);
  }
  if (run.riskLimits !== undefined) lines.push(`  risk limits: ${JSON.stringify(run.riskLimits)}`);
  if (run.fees !== undefined) lines.push(`  fees: ${JSON.stringify(run.fees)}`);
  if (run.warmUp !== undefined) {
    const counts = Object.entries(run.warmUp.prices ?? {})
      .map(([m, p]) => `${m} ${p.length}`)
      .join(', ');
    lines.push(`  warm-up: ${run.warmUp.points} points of ${run.warmUp.increment}${counts === '' ? '' : ` (${counts} recorded)`}`);
  }
  return lines;
}
