import { expect } from 'vitest';

/**
 * Asserts two output sequences agree: the same positions are undefined (same warm-up) and each
 * defined pair matches within `rel` relative to max(|a|, |b|) or within `abs` absolutely (for
 * values that cross or approach zero, compared against the price scale instead).
 */
export function expectSeriesClose(
  label: string,
  ours: ReadonlyArray<number | undefined>,
  theirs: ReadonlyArray<number | undefined>,
  rel = 1e-9,
  abs = 0,
): void {
  expect(ours.length, `${label}: length`).toBe(theirs.length);
  let worst = 0;
  for (let i = 0; i < ours.length; i++) {
    const a = ours[i];
    const b = theirs[i];
    if (a === undefined || b === undefined) {
      expect(a, `${label}[${i}] defined-ness (theirs ${String(b)})`).toBe(b);
      continue;
    }
    const diff = Math.abs(a - b);
    const err = diff <= abs ? 0 : diff / Math.max(Math.abs(a), Math.abs(b));
    if (!(err <= rel)) expect.fail(`${label}[${i}]: ours ${a} vs technicalindicators ${b} (rel err ${err}, abs ${diff})`);
    worst = Math.max(worst, err);
  }
  expect(worst).toBeLessThanOrEqual(rel);
}

/** Index of the first defined value, or -1. */
export function firstDefined(values: ReadonlyArray<number | undefined>): number {
  return values.findIndex((v) => v !== undefined);
}
