#!/usr/bin/env node
// `npm run build`: compiles the package and the command into dist/ (tsconfig.build.json) and writes
// the build stamp the command checks at start (bin/dist-check.js). With --if-stale (`prepare`, run by
// `npm install`), a dist/ that is already current is kept as it is.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT, distProblem, writeStamp } from './dist-check.js';

if (process.argv.includes('--if-stale')) {
  const problem = distProblem();
  if (problem === undefined) {
    process.stdout.write('tradeloop: dist/ is current with the sources; not rebuilt\n');
    process.exit(0);
  }
  process.stdout.write(`tradeloop: building dist/: ${problem}\n`);
}
const startedAt = Date.now();
rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit', cwd: ROOT });
if (r.status !== 0) process.exit(r.status ?? 1);
writeStamp(startedAt);
