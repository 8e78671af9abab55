import { describe, expect, it } from 'vitest';
import { checkApi } from './api-report.js';

describe('the public API', () => {
  it('matches the committed API reports (api/*.api.md): a change needs npm run api:update and a reviewed diff', () => {
    const results = checkApi({ write: false });
    expect(results.flatMap((r) => r.errors)).toEqual([]);
    const changed = results.filter((r) => r.changed).map((r) => r.report);
    expect(
      changed,
      `the public surface changed in ${changed.join(', ')}: if on purpose, run \`npm run api:update\` and commit the reports`,
    ).toEqual([]);
  }, 120_000);
});
