// Preloaded (node --import) by the bench that times `tradeloop run` to its first poll: prints the
// wall-clock time and path of each of the first HTTP requests the process makes (undici's diagnostics
// channel), one JSON line each on stderr, so the bench can tell when the first price poll left.
import { subscribe } from 'node:diagnostics_channel';

let seen = 0;
subscribe('undici:request:create', ({ request }) => {
  if (seen++ < 40) process.stderr.write(`\n${JSON.stringify({ request: request.path, at: Date.now() })}\n`);
});
