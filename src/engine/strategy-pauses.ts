import type { Clock } from '../clock/index.js';
import type { JournalStore } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { StrategyPause, StrategyPauses } from '../risk/index.js';

/** The journal's meta key that keeps the paused strategies (a JSON list of StrategyPause). */
export const PAUSES_META_KEY = 'strategy-pauses';

type MetaJournal = Pick<JournalStore, 'getMeta' | 'setMeta'>;

/**
 * Puts back the pauses the journal keeps (a restart keeps a paused strategy paused) and says so at
 * the start, one line per running strategy still paused. A pause of a strategy that no longer runs
 * stays in the journal for when it runs again. A record that does not read is named and left alone.
 */
export function restorePauses(journal: MetaJournal, pauses: StrategyPauses, running: readonly string[], log?: Logger): void {
  const raw = journal.getMeta(PAUSES_META_KEY);
  if (raw === undefined) return;
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    list = undefined;
  }
  if (!Array.isArray(list)) {
    log?.error(`the journal's ${PAUSES_META_KEY} record does not read as a list of paused strategies: no strategy starts paused`);
    return;
  }
  for (const p of list as StrategyPause[]) {
    if (typeof p?.strategy !== 'string' || typeof p.since !== 'number' || typeof p.reason !== 'string') continue;
    pauses.pause(p);
    if (running.includes(p.strategy))
      log?.warn(
        { strategy: p.strategy, pausedSince: p.since },
        `${p.strategy} starts paused (${p.reason}, since ${new Date(p.since).toISOString()}): its new intents are denied until resumed (tradeloop ctl resume ${p.strategy}, or POST /api/resume {"strategy": "${p.strategy}"})`,
      );
  }
}

/** Writes the current pauses to the journal (after each pause and resume). */
export function journalPauses(journal: MetaJournal, pauses: StrategyPauses): void {
  journal.setMeta(PAUSES_META_KEY, JSON.stringify(pauses.list()));
}

type PausePorts = { readonly journal: MetaJournal; readonly clock: Pick<Clock, 'now'>; readonly log?: Logger };

/** Pauses `strategy` now and journals it; false when it was paused already (its first pause is kept). */
export function pauseStrategy(ports: PausePorts, pauses: StrategyPauses, strategy: string, reason: string): boolean {
  if (!pauses.pause({ strategy, since: ports.clock.now(), reason })) return false;
  journalPauses(ports.journal, pauses);
  ports.log?.warn({ strategy }, `${strategy} paused: ${reason}; its open orders and position stay`);
  return true;
}

/** Lifts `strategy`'s pause and journals it; the pause lifted, or undefined when it was not paused. */
export function resumeStrategy(ports: PausePorts, pauses: StrategyPauses, strategy: string): StrategyPause | undefined {
  const lifted = pauses.resume(strategy);
  if (lifted === undefined) return undefined;
  journalPauses(ports.journal, pauses);
  ports.log?.warn({ strategy }, `${strategy} resumed: its new intents pass the gate again`);
  return lifted;
}
