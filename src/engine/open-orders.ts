import { errorMessage, type JournalStore } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { Venue } from '../venue/index.js';

/**
 * Cancels the orders the journal holds open, straight at the venue (the kill switch and shutdown): each
 * order is asked once, and again only after a failed request. Called again, it picks up orders that
 * were still in flight the last time (their answer came after the kill switch tripped).
 */
export class OpenOrderCanceller {
  private readonly asked = new Set<string>();

  constructor(
    private readonly journal: JournalStore,
    private readonly venue: Venue,
    private readonly log: Logger,
  ) {}

  /** Asks the venue to cancel every open order not asked yet; resolves when every request answered. */
  async cancelAll(): Promise<void> {
    for (const row of this.journal.intents({ state: 'open', kind: 'place-order' })) {
      const id = row.venueId;
      if (id === null || this.asked.has(id)) continue;
      this.asked.add(id);
      await this.venue.cancelOrder(id).catch((e: unknown) => {
        this.asked.delete(id);
        this.log.warn(`cancel of ${row.refId} failed: ${errorMessage(e)}`);
      });
    }
  }
}
