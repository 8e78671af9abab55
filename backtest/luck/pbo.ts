/**
 * The probability of backtest overfitting by combinatorially symmetric cross-validation (Bailey,
 * Borwein, López de Prado and Zhu, "The Probability of Backtest Overfitting", 2014). The trials'
 * metric on S segments (S even) is split every way into S/2 in-sample and S/2 out-of-sample
 * segments; for each split the trial best in sample (mean over its segments) is ranked among all
 * trials out of sample, ω = rank / (N + 1) (rank N the best), λ = ln(ω / (1 − ω)). PBO is the share
 * of splits with λ ≤ 0: how often the in-sample winner does no better than the median out of
 * sample. Near 0 the choice carries over; near 0.5 or above the selection is fitting noise.
 */

/** `perf[trial][segment]`, higher better; undefined below 2 trials or 2 segments (an odd S drops the first segment). */
export function probabilityOfOverfitting(
  perf: readonly (readonly number[])[],
): { pbo: number; splits: number; segments: number } | undefined {
  if (perf.length < 2) return undefined;
  const all = perf[0]!.length;
  const drop = all % 2;
  const s = all - drop;
  if (s < 2) return undefined;
  const rows = perf.map((r) => r.slice(drop));
  const mean = (r: readonly number[], idx: readonly number[]): number => idx.reduce((a, i) => a + r[i]!, 0) / idx.length;
  let splits = 0;
  let overfit = 0;
  for (const is of combinations(s, s / 2)) {
    const oos = Array.from({ length: s }, (_, i) => i).filter((i) => !is.includes(i));
    let best = 0;
    for (let n = 1; n < rows.length; n++) if (mean(rows[n]!, is) > mean(rows[best]!, is)) best = n;
    const chosen = mean(rows[best]!, oos);
    const rank = 1 + rows.filter((r, n) => n !== best && mean(r, oos) < chosen).length;
    const omega = rank / (rows.length + 1);
    splits++;
    if (Math.log(omega / (1 - omega)) <= 0) overfit++;
  }
  return { pbo: overfit / splits, splits, segments: s };
}

function combinations(n: number, k: number): number[][] {
  const out: number[][] = [];
  const pick = (start: number, acc: number[]): void => {
    if (acc.length === k) return void out.push([...acc]);
    for (let i = start; i < n; i++) pick(i + 1, [...acc, i]);
  };
  pick(0, []);
  return out;
}
