#!/usr/bin/env node
// Entry point of the `tradeloop` command. It runs the compiled JavaScript in dist/ (built by `npm run
// build`, which `npm install` runs), loading each command's modules only when that command runs. When
// dist/ is missing or older than the sources (bin/dist-check.js), it says so in one line and runs the
// TypeScript sources through tsx instead (slower to start, same behaviour). Either way a user's `.ts`
// strategy plugin loads with no build step: tsx and bin/plugin-hooks.js, which make its `import ...
// from 'tradeloop'` reach this very installation wherever the plugin's folder is, are registered when
// a plugin is loaded (src/strategy/plugin-loader.ts), or at start when running from the sources.

// A reader that closes the pipe early (`| head`) is not an error of ours: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

const { distProblem } = await import('./dist-check.js');
const problem = distProblem();
let main;
if (problem === undefined) {
  ({ main } = await import('../dist/bundle/main.js'));
} else {
  process.stderr.write(`tradeloop: running from the TypeScript sources (slower to start): ${problem}\n`);
  await import('./register.js');
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
