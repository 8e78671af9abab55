/**
 * Min/max downsampling for charts: a million-point run would make a report page of tens of megabytes
 * and a chart that draws slowly, while a screen shows a few thousand x positions at most. Averaging or
 * striding would hide spikes (a flash crash, the worst drawdown), so each bucket keeps the points where
 * every series reaches its minimum and its maximum, in time order, at their real times and values.
 */

/**
 * Indices of the points to keep so that every series keeps each bucket's min and max: at most
 * `maxPoints` indices (plus the first and last point), ascending. With `n ≤ maxPoints` all points stay.
 * NaN values are ignored when looking for extremes.
 */
export function minMaxIndices(length: number, series: readonly Float64Array[], maxPoints: number): Uint32Array {
  if (length <= maxPoints) return Uint32Array.from({ length }, (_, i) => i);
  const perBucket = Math.max(2, 2 * series.length);
  const buckets = Math.max(1, Math.floor((maxPoints - 2) / perBucket));
  const keep: number[] = [0];
  const picked: number[] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * length) / buckets);
    const to = Math.floor(((b + 1) * length) / buckets);
    picked.length = 0;
    for (const values of series) bucketExtremes(values, from, to, picked);
    if (picked.length === 0) picked.push(from);
    picked.sort((x, y) => x - y);
    for (const i of picked) if (i !== keep[keep.length - 1]) keep.push(i);
  }
  if (keep[keep.length - 1] !== length - 1) keep.push(length - 1);
  return Uint32Array.from(keep);
}

function bucketExtremes(values: Float64Array, from: number, to: number, out: number[]): void {
  let lo = -1;
  let hi = -1;
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    if (lo < 0 || v < values[lo]!) lo = i;
    if (hi < 0 || v > values[hi]!) hi = i;
  }
  if (lo >= 0 && !out.includes(lo)) out.push(lo);
  if (hi >= 0 && !out.includes(hi)) out.push(hi);
}

/** The values of `values` at `indices`, scaled by `scale` (e.g. ms → s) and rounded to `digits`. */
export function pick(values: Float64Array, indices: Uint32Array, scale = 1, digits?: number): number[] {
  const out = new Array<number>(indices.length);
  const f = digits === undefined ? 0 : 10 ** digits;
  for (let k = 0; k < indices.length; k++) {
    const v = values[indices[k]!]! * scale;
    out[k] = f ? Math.round(v * f) / f : v;
  }
  return out;
}
