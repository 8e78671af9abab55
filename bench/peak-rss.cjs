// Preloaded (node --require) by the benches that run the tradeloop command as a user does: prints
// the process's peak RSS as one JSON line on stderr when it exits, so a child's memory is its own.
process.on('exit', () => {
  process.stderr.write(`\n${JSON.stringify({ peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
});
