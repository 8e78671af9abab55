/**
 * `npm run bench`: runs every benchmark and prints its figures. Each benchmark module exports
 * `run(): Promise<void>` and prints its own lines; add new ones to BENCHES.
 */
const BENCHES: ReadonlyArray<{ name: string; load: () => Promise<{ run: () => Promise<void> }> }> = [
  { name: 'command', load: () => import('./command.js') },
  { name: 'indicators', load: () => import('./indicators.js') },
  { name: 'backtest-load', load: () => import('./backtest-load.js') },
  { name: 'backtest-replay', load: () => import('./backtest-replay.js') },
  { name: 'dense-replay', load: () => import('./dense-replay.js') },
  { name: 'portfolio-replay', load: () => import('./portfolio-replay.js') },
  { name: 'sandbox', load: () => import('./sandbox.js') },
  { name: 'api-client', load: () => import('./api-client.js') },
  { name: 'risk', load: () => import('./risk.js') },
  { name: 'signal-latency', load: () => import('./signal-latency.js') },
  { name: 'streams-soak', load: () => import('./streams-soak.js') },
  { name: 'queue', load: () => import('./queue.js') },
];

const only = process.argv.slice(2);
for (const bench of BENCHES) {
  if (only.length && !only.includes(bench.name)) continue;
  process.stdout.write(`\n== ${bench.name} ==\n`);
  const mod = await bench.load();
  await mod.run();
}
if (BENCHES.length === 0) process.stdout.write('no benchmarks registered yet\n');
