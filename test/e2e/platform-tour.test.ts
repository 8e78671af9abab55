import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runTour } from '../../examples/platform-tour.js';

describe('examples/platform-tour.ts', () => {
  it('walks one identity from creation to a settled trade and a completed withdrawal', async () => {
    const lines = await runTour(() => undefined);
    expect(lines).toHaveLength(11);
    expect(lines[1]).toMatch(/"summary_status":"APPROVED"/);
    expect(lines[6]).toMatch(/"status":"SETTLED","balances":\["USD 2000","BTC 0.05"\]/);
    expect(lines[8]).toMatch(/"status":"APPROVED"/);
    expect(lines[10]).toMatch(/"status":"COMPLETED","usd":"995"/);
  });

  it('runs as a script and exits 0', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const out = execFileSync('npx', ['tsx', 'examples/platform-tour.ts'], { cwd: root, encoding: 'utf8', timeout: 180_000 });
    expect(out).toContain('11. withdrawal completed');
  }, 240_000);
});
