/** PBO by CSCV against splits worked out by hand. */
import { describe, expect, it } from 'vitest';
import { probabilityOfOverfitting } from './pbo.js';

describe('probabilityOfOverfitting', () => {
  it('is 1 when every in-sample winner loses out of sample, 0 when the winner always holds', () => {
    expect(
      probabilityOfOverfitting([
        [2, 0],
        [0, 1],
      ]),
    ).toEqual({ pbo: 1, splits: 2, segments: 2 });
    expect(
      probabilityOfOverfitting([
        [2, 2],
        [0, 0],
      ]),
    ).toEqual({ pbo: 0, splits: 2, segments: 2 });
  });

  it('counts the overfit splits of four segments (2 of 6, worked by hand)', () => {
    // IS {0,1} picks A, worst out of sample; IS {2,3} picks B, worst out of sample; the other four pick A, best out of sample
    expect(
      probabilityOfOverfitting([
        [4, 3, 0, 0],
        [0, 0, 2, 1],
        [1, 1, 1, 1],
      ]),
    ).toEqual({ pbo: 2 / 6, splits: 6, segments: 4 });
  });

  it('drops the first of an odd number of segments, and needs 2 trials', () => {
    expect(
      probabilityOfOverfitting([
        [9, 2, 0],
        [9, 0, 1],
      ]),
    ).toEqual({ pbo: 1, splits: 2, segments: 2 });
    expect(probabilityOfOverfitting([[1, 2]])).toBeUndefined();
  });
});
