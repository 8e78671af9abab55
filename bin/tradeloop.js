#!/usr/bin/env node
// Entry point of the `tradeloop` command. The project runs from its TypeScript sources through tsx,
// so `npx tradeloop` works right after `npm install`, with no build step; the same loader lets users
// load their own `.ts` strategy plugins, and bin/plugin-hooks.js makes their `import ... from
// 'tradeloop'` reach this very installation, wherever the plugin's folder is.

// A reader that closes the pipe early (`| head`) is not an error of ours: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

await import('./register.js');
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
