import { describe, expect, it } from 'vitest';
import { noDecisionWarning, warmUpOf } from './warm-up-note.js';

describe('warm-up of a strategy', () => {
  it('takes what the definition declares over the period-like params', () => {
    expect(warmUpOf({ slow: 30, fast: 5 })).toEqual({ points: 30, param: 'slow' });
    expect(warmUpOf({ slow: 30 }, { warmUp: (p: { slow: number }) => p.slow + 1 } as never)).toEqual({ points: 31 });
    // a declaration that throws or answers nonsense falls back to the params
    expect(warmUpOf({ slow: 30 }, { warmUp: () => Number.NaN })).toEqual({ points: 30, param: 'slow' });
    expect(
      warmUpOf(
        { slow: 30 },
        {
          warmUp: () => {
            throw new Error('x');
          },
        },
      ),
    ).toEqual({ points: 30, param: 'slow' });
  });

  it('says no decision was possible, naming the declared warm-up', () => {
    const w = noDecisionWarning({ name: 'deep', warmUp: () => 500 }, { depth: 3 }, 120, 0);
    expect(w).toMatch(
      /^no decision was possible: the 120 points replayed are not enough for the warm-up of deep \(it needs 500 points before its first decision\)/,
    );
    expect(w).not.toMatch(/or a shorter/);
    expect(noDecisionWarning({ name: 'sma-cross' }, { slow: 30 }, 2, 0)).toMatch(/slow=30 needs more than 30 points .* or a shorter slow$/);
    expect(noDecisionWarning({ name: 'deep', warmUp: () => 500 }, {}, 120, 3)).toBeUndefined();
  });
});
