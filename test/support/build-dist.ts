/**
 * vitest's global setup: the end-to-end tests run the `tradeloop` command as users do, from the
 * compiled dist/, so dist/ must be current with the sources before they start. When it is (a fresh
 * `npm ci`, or no source changed since the last build) this costs one stat per source; when it is not,
 * it runs `npm run build` once, before any test file.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, distProblem } from '../../bin/dist-check.js';

export default function setup(): void {
  const problem = distProblem();
  if (problem === undefined) return;
  process.stderr.write(`building dist/ for the end-to-end tests: ${problem}\n`);
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'build.js')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status}): the end-to-end tests need the compiled command`);
}
