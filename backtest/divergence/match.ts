/**
 * Pairs the live run's decisions with the replay's, per strategy, by the strategy's own sequence and
 * time: the n-th intent of strategy S live with the n-th of the replay while they agree on kind,
 * market and side within the time tolerance. When they do not, the report looks a few decisions
 * ahead on each side (within the tolerance of the one it holds) for the partner and calls what it
 * skips one-sided, so one extra or missing intent does not misalign everything after it.
 */
import type { DecisionRecord } from './journal.js';

/** A live decision and its replayed partner; one of them is missing for a one-sided decision. */
export interface DecisionPair {
  readonly live?: DecisionRecord;
  readonly replay?: DecisionRecord;
}

/** True when two decisions are the same act: same kind, market and side, made within `toleranceMs`. */
export function sameAct(a: DecisionRecord, b: DecisionRecord, toleranceMs: number): boolean {
  return a.kind === b.kind && a.market === b.market && a.side === b.side && Math.abs(a.at - b.at) <= toleranceMs;
}

/**
 * Aligns two lists of one strategy's decisions (each in its own order). Pairs in the result are in
 * decision order; a one-sided decision sits where it happened.
 */
export function alignDecisions(live: readonly DecisionRecord[], replay: readonly DecisionRecord[], toleranceMs: number): DecisionPair[] {
  const out: DecisionPair[] = [];
  let i = 0;
  let j = 0;
  while (i < live.length || j < replay.length) {
    const a = live[i];
    const b = replay[j];
    if (a === undefined) {
      out.push({ replay: b! });
      j++;
    } else if (b === undefined) {
      out.push({ live: a });
      i++;
    } else if (sameAct(a, b, toleranceMs)) {
      out.push({ live: a, replay: b });
      i++;
      j++;
    } else if (a.at < b.at - toleranceMs) {
      out.push({ live: a });
      i++;
    } else if (b.at < a.at - toleranceMs) {
      out.push({ replay: b });
      j++;
    } else {
      // near in time but not the same act: skip to the nearer partner, else pair them as differing
      const ahead = partnerAhead(a, replay, j + 1, toleranceMs);
      const behind = partnerAhead(b, live, i + 1, toleranceMs);
      if (ahead !== undefined && (behind === undefined || ahead - j <= behind - i)) {
        for (; j < ahead; j++) out.push({ replay: replay[j]! });
      } else if (behind !== undefined) {
        for (; i < behind; i++) out.push({ live: live[i]! });
      } else {
        out.push({ live: a, replay: b });
        i++;
        j++;
      }
    }
  }
  return out;
}

/** Index of the first decision from `from` that is the same act as `d`, looking no later than its tolerance. */
function partnerAhead(d: DecisionRecord, list: readonly DecisionRecord[], from: number, toleranceMs: number): number | undefined {
  for (let k = from; k < list.length && list[k]!.at <= d.at + toleranceMs; k++) if (sameAct(d, list[k]!, toleranceMs)) return k;
  return undefined;
}
