/**
 * A bot process for the shared-budget test: reads the order book in a loop for `ms` milliseconds
 * through the API client, with `api.rate_limit_store` when given, and prints one JSON line with the
 * requests sent and the 429s it got. Run with `node --import bin/register.js`.
 */
import { createApiClient } from '../../src/api/client.js';
import { budgetStoreFromConfig } from '../../src/api/http/redis-budget-store.js';
import { LiveClock } from '../../src/clock/index.js';

const [apiUrl, store, msText, safetyText] = process.argv.slice(2) as [string, string, string, string];
const clock = new LiveClock();
let sent = 0;
let limited = 0;
const api = createApiClient({
  apiUrl, clock, maxRetries: 0, rateLimitSafety: Number(safetyText), rateLimitPenaltyMs: 2_000,
  ...(store !== 'none' && { rateLimitStore: budgetStoreFromConfig(store, process.env, 'bot-credential') }),
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
