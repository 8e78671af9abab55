/**
 * A bot process for the shared-budget test: reads the order book in a loop for `ms` milliseconds
 * through the API client built from a config (`api.rate_limit_store` set unless `none`), as a run
 * builds it, and prints one JSON line with the requests sent and the 429s it got. Run with
 * `node --import bin/register.js`.
 */
import { createApiClientFromConfig } from '../../src/api/from-config.js';
import { LiveClock } from '../../src/clock/index.js';
import { parseConfig } from '../../src/config/load.js';

const [apiUrl, store, msText, safetyText] = process.argv.slice(2) as [string, string, string, string];
const clock = new LiveClock();
let sent = 0;
let limited = 0;
const config = parseConfig({
  environment: 'local',
  api: { base_url: apiUrl, max_retries: 0, rate_limit_penalty_ms: 2_000, ...(store !== 'none' && { rate_limit_store: store }) },
});
const api = createApiClientFromConfig(config, process.env, {
  clock,
  rateLimitSafety: Number(safetyText),
  onResponse: (e) => {
    sent++;
    if (e.status === 429) limited++;
  },
});
const end = clock.now() + Number(msText);
while (clock.now() < end) {
  try {
    await api.getOrderBook('BTCUSD');
  } catch {
    // a 429 is counted above
  }
}
await api.close();
process.stdout.write(`${JSON.stringify({ sent, limited })}\n`);
