import { InputError } from '../core/index.js';
import { VenueNotFoundError, type Venue } from '../venue/venue.js';
import type { JournalStore } from './journal-store.js';

/**
 * Who a journal trades with. A journal's ref_ids, venue ids and fills only mean something at the
 * venue that issued them: the same order id at another venue (or at a sandbox started afresh) is
 * another order, so a journal is bound to one venue at its first start and refused elsewhere.
 */
export interface VenueIdentity {
  /** The environment's name (`local`, `sandbox`, `production`, or a custom one). */
  readonly environment: string;
  /** The API host without its port (a local sandbox takes a new port on every start). */
  readonly host: string;
  /** The profile the bot trades on. */
  readonly profileId: string;
  /**
   * The embedded sandbox's instance id, made at its first start and kept in its state: for `local`
   * it alone decides whether this is the sandbox the journal traded with (absent when the sandbox
   * does not expose one, or for a sandbox run elsewhere).
   */
  readonly sandboxInstance?: string;
}

const META_KEY = 'venue';

/** The identity from an API URL: its host without the port. */
export function apiHost(url: string): string {
  return new URL(url).hostname.toLowerCase();
}

/**
 * Binds the journal to `venue` (first start) or refuses a journal made at another venue, naming
 * what differs and the fix. A journal made before venues were recorded is bound now; a journaled
 * identity without a sandbox instance gains it when the sandbox gives one.
 */
export function bindJournalVenue(journal: Pick<JournalStore, 'getMeta' | 'setMeta'>, venue: VenueIdentity): void {
  const raw = journal.getMeta(META_KEY);
  const bound = raw === undefined ? undefined : parseIdentity(raw);
  if (bound) {
    const why = difference(bound, venue);
    if (why)
      throw new InputError(
        'journal.path',
        `this journal belongs to another venue (${why}): its ref_ids and order ids mean nothing here, so give this venue its own journal.path (or point the bot back at the venue this journal traded with)`,
      );
    if (bound.sandboxInstance !== undefined || venue.sandboxInstance === undefined) return;
  }
  journal.setMeta(META_KEY, JSON.stringify(venue));
}

/** The venue identity a journal is bound to, if any. */
export function journalVenue(journal: Pick<JournalStore, 'getMeta'>): VenueIdentity | undefined {
  const raw = journal.getMeta(META_KEY);
  return raw === undefined ? undefined : parseIdentity(raw);
}

function parseIdentity(raw: string): VenueIdentity | undefined {
  try {
    const v = JSON.parse(raw) as Partial<VenueIdentity>;
    if (typeof v.environment !== 'string' || typeof v.host !== 'string' || typeof v.profileId !== 'string') return undefined;
    return {
      environment: v.environment,
      host: v.host,
      profileId: v.profileId,
      ...(typeof v.sandboxInstance === 'string' && { sandboxInstance: v.sandboxInstance }),
    };
  } catch {
    return undefined;
  }
}

function difference(bound: VenueIdentity, now: VenueIdentity): string | undefined {
  if (bound.environment !== now.environment) return `environment ${bound.environment}, not ${now.environment}`;
  if (bound.sandboxInstance !== undefined && now.sandboxInstance !== undefined) {
    // for the embedded sandbox the instance alone decides: its port, and even its host, may change
    return bound.sandboxInstance === now.sandboxInstance
      ? undefined
      : `sandbox instance ${bound.sandboxInstance}, not ${now.sandboxInstance}: the sandbox's world was started afresh (its local.state is gone or another); tradeloop run --fresh archives this journal with its world`;
  }
  if (bound.host !== now.host) return `API host ${bound.host}, not ${now.host}`;
  if (bound.profileId !== now.profileId) return `profile ${bound.profileId}, not ${now.profileId}`;
  return undefined;
}

/** How many of the latest journaled records of each kind are read back from the venue at start. */
const ROLLBACK_SAMPLE = 3;

/**
 * Refuses a venue that lost records the journal holds (a rollback: a sandbox restored from an
 * older state, or a journal that was never made here): the latest journaled orders, quote
 * executions and transfers are read back by venue id, and each must exist with the journaled
 * ref_id. Merging by venue id alone would attribute another record, and its fills, to ours.
 */
export async function checkVenueHoldsJournal(journal: Pick<JournalStore, 'intents'>, venue: Venue): Promise<void> {
  for (const kind of ['place-order', 'execute-quote', 'transfer'] as const) {
    const rows = journal
      .intents({ kind, limit: 50 })
      .filter((r) => r.venueId !== null)
      .slice(0, ROLLBACK_SAMPLE);
    for (const row of rows) {
      const venueId = row.venueId as string;
      const seen = await readBack(venue, kind, venueId, row.refId);
      if (seen === row.refId) continue;
      const what = seen === undefined ? `does not know ${kind} ${venueId}` : `holds ${venueId} under ref_id ${seen}`;
      throw new InputError(
        'journal.path',
        `the venue ${what}, which this journal recorded for ${row.refId}: the venue lost records the journal holds (rolled back, or started afresh), or this journal was made at another venue. Trading on would misattribute orders and fills: give this venue a new journal.path, or restore the venue's state that matches this journal`,
      );
    }
  }
}

/** The ref_id the venue holds for a journaled record, or undefined when the venue does not know it. */
async function readBack(
  venue: Venue,
  kind: 'place-order' | 'execute-quote' | 'transfer',
  venueId: string,
  refId: string,
): Promise<string | undefined> {
  try {
    if (kind === 'place-order') return (await persist(() => venue.getOrder(venueId))).refId;
    if (kind === 'execute-quote') return (await persist(() => venue.getQuoteExecution(venueId))).refId ?? refId;
    const t = await persist(() => venue.findTransferByRef(refId));
    return t && (t.transferId === venueId ? t.refId : `${t.refId} (as transfer ${t.transferId})`);
  } catch (e) {
    if (e instanceof VenueNotFoundError) return undefined;
    throw e;
  }
}

/** Reads at start go again after a failure that proves nothing (a 5xx, a malformed body), a few times. */
const START_READ_TRIES = 3;

async function persist<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (e) {
      if (e instanceof VenueNotFoundError || attempt >= START_READ_TRIES) throw e;
    }
  }
}

/** How many ids past the journal's last one are looked up at the venue at start. */
const PREFIX_WINDOW = 3;

/**
 * Refuses to start when the venue already holds a record (order, quote execution or transfer)
 * with one of the next ids this journal would issue: another journal with the same prefix made
 * it (an empty journal given a used `run.ref_prefix`, or a copy of a journal that has moved on),
 * and the venue would take our next order under an id it has already seen — for another kind of
 * record it would even accept it, two records with one ref_id.
 */
export async function checkPrefixUnused(journal: Pick<JournalStore, 'intents'>, venue: Venue, prefix: string): Promise<void> {
  const last = lastSequence(
    prefix,
    journal.intents().map((r) => r.refId),
  );
  // the window's ids asked together (reads only, all answered before the start goes on); the first held is reported
  const ids = Array.from({ length: PREFIX_WINDOW }, (_, i) => `${prefix}-${last + 1 + i}`);
  const kinds = await Promise.all(ids.map((refId) => heldKind(venue, refId)));
  for (const [i, held] of kinds.entries()) {
    const refId = ids[i]!;
    if (held === undefined) continue;
    const why =
      last === 0
        ? `this journal is empty, but the venue already holds ${held} ${refId}: another journal used prefix ${prefix}`
        : `this journal issued ids up to ${prefix}-${last}, but the venue already holds ${held} ${refId}: another journal with this prefix (a copy of this one?) has moved on`;
    throw new InputError(
      'run.ref_prefix',
      `${why}. Our next ids would repeat ids the venue has seen: set a new run.ref_prefix with a new journal.path, or run with the journal that made them`,
    );
  }
}

async function heldKind(venue: Venue, refId: string): Promise<string | undefined> {
  const [order, execution, transfer] = await Promise.all([
    persist(() => venue.findOrderByRef(refId)),
    persist(() => venue.findQuoteExecutionByRef(refId)),
    persist(() => venue.findTransferByRef(refId)),
  ]);
  if (order) return `order ${order.orderId}`;
  if (execution) return `quote execution ${execution.executionId}`;
  return transfer && `transfer ${transfer.transferId}`;
}

/** Highest `<prefix>-<n>` sequence number among `ids` (0 when none). */
export function lastSequence(prefix: string, ids: Iterable<string>): number {
  let max = 0;
  const head = `${prefix}-`;
  for (const id of ids) {
    if (!id.startsWith(head)) continue;
    const n = Number(id.slice(head.length));
    if (Number.isInteger(n) && n > max) max = n;
  }
  return max;
}
