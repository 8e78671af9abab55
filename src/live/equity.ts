import { D, ZERO, type Dec, type Instrument, type MarketSymbol } from '../core/index.js';
import type { JournalStore } from '../exec/index.js';
import type { KillSwitchMarks } from '../risk/index.js';
import { midOf, type AccountStore, type MarketStore } from '../state/index.js';
import type { HeldPosition } from './run-view.js';

/** Holdings marked at mid in `quote`; undefined before balances, or when a held asset has no price. */
export function equityOf(account: AccountStore, market: MarketStore, quote: string): Dec | undefined {
  const balances = account.snapshot.balances?.value;
  if (!balances) return undefined;
  let total = ZERO;
  for (const b of balances.values()) {
    const amount = b.available.plus(b.trading);
    if (amount.isZero()) continue;
    if (b.asset === quote) total = total.plus(amount);
    else {
      const mid = midOf(market.snapshot(`${b.asset}${quote}`));
      if (mid === undefined) return undefined;
      total = total.plus(amount.times(mid));
    }
  }
  return total;
}

/**
 * What is held besides `quote` (the equity asset): each asset's total, valued at the mid of
 * asset+quote when that market has one. For the run summary's list of positions still held.
 */
export function heldPositions(
  account: AccountStore,
  market: MarketStore,
  quote: string,
  instrument: (m: MarketSymbol) => Instrument | undefined,
): HeldPosition[] {
  const balances = account.snapshot.balances?.value;
  if (!balances) return [];
  const out: HeldPosition[] = [];
  for (const b of balances.values()) {
    const amount = b.available.plus(b.trading);
    if (amount.isZero() || b.asset === quote) continue;
    const symbol = `${b.asset}${quote}`;
    const mid = midOf(market.snapshot(symbol));
    const priced = mid !== undefined && Number.isFinite(mid);
    const decimals = instrument(symbol)?.priceDecimals;
    out.push({
      asset: b.asset,
      amount: amount.toFixed(),
      ...(priced && { market: symbol, mid: String(mid), value: amount.times(mid).toFixed() }),
      ...(priced && decimals !== undefined && { priceDecimals: decimals }),
    });
  }
  return out.sort((a, b) => a.asset.localeCompare(b.asset));
}

/** The journal's record of the equity a run started with: one per journal, so a restart keeps it. */
export interface StartEquity {
  readonly asset: string;
  readonly value: string;
  readonly at: number;
}

const START_EQUITY_KEY = 'run.start_equity';

/**
 * The start equity kept in the journal, when it was measured in `asset`; undefined for a new journal
 * (or one whose record is unreadable or in another asset: the run measures its start again).
 */
export function readStartEquity(journal: Pick<JournalStore, 'getMeta'>, asset: string): StartEquity | undefined {
  const raw = journal.getMeta(START_EQUITY_KEY);
  if (raw === undefined) return undefined;
  try {
    const s = JSON.parse(raw) as Partial<StartEquity>;
    if (s.asset !== asset || typeof s.value !== 'string' || typeof s.at !== 'number' || !new D(s.value).isFinite()) return undefined;
    return { asset: s.asset, value: s.value, at: s.at };
  } catch {
    return undefined;
  }
}

/** Keeps the start equity in the journal (full precision), for the summary of a restarted run. */
export function saveStartEquity(journal: Pick<JournalStore, 'setMeta'>, start: StartEquity): void {
  journal.setMeta(START_EQUITY_KEY, JSON.stringify(start));
}

const KILL_SWITCH_MARKS_KEY = 'risk.kill_switch_marks';

/**
 * The kill switch's marks kept in the journal (the UTC day's opening equity and the drawdown's peak),
 * when they were measured in `asset`; undefined when none are kept or the record is unreadable.
 */
export function readKillSwitchMarks(journal: Pick<JournalStore, 'getMeta'>, asset: string): KillSwitchMarks | undefined {
  const raw = journal.getMeta(KILL_SWITCH_MARKS_KEY);
  if (raw === undefined) return undefined;
  try {
    const m = JSON.parse(raw) as Partial<KillSwitchMarks> & { asset?: string };
    if (m.asset !== asset || typeof m.day !== 'string' || typeof m.dayOpenEquity !== 'string' || typeof m.peak !== 'string')
      return undefined;
    if (!new D(m.dayOpenEquity).isFinite() || !new D(m.peak).isFinite()) return undefined;
    return { day: m.day, dayOpenEquity: m.dayOpenEquity, peak: m.peak };
  } catch {
    return undefined;
  }
}

/** Keeps the kill switch's marks in the journal (full precision), keyed by their UTC day. */
export function saveKillSwitchMarks(journal: Pick<JournalStore, 'setMeta'>, asset: string, marks: KillSwitchMarks): void {
  journal.setMeta(KILL_SWITCH_MARKS_KEY, JSON.stringify({ asset, ...marks }));
}
