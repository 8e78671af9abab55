import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/api/operations.js';
import { fuzzResponses } from './fuzz-responses.js';

describe('API response fuzzing (seeded; npm run chaos runs 10,000 per schema)', () => {
  it(
    'every generated malformed body of every operation is a MalformedResponseError, every error body an ApiError without the secret',
    { timeout: 60_000 },
    () => {
      const r = fuzzResponses(1_500, 7);
      expect(r.failures).toEqual([]);
      expect(r.schemas).toBe(OPERATIONS.length);
      expect(r.typedErrors).toBe(r.bodies);
      expect(r.bodies).toBe(1_500 * OPERATIONS.length);
    },
  );
});
