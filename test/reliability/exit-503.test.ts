import { describe, expect, it } from 'vitest';
import { runExitChaos } from './exit-503.js';

describe('exit under 503s (the npm test share of `npm run chaos`)', () => {
  it(
    'three runs stopped with SIGINT while half the cancels get a 503: each closes every order or exits 3 naming them; the journal matches the venue',
    { timeout: 180_000 },
    async () => {
      const r = await runExitChaos({ rounds: 3, seed: 3 });
      expect(r.violations).toEqual([]);
      expect(r.exit0 + r.exit3).toBe(3);
      expect(r.cancelsRefused).toBeGreaterThan(0);
    },
  );
});
