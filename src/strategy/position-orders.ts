import type { ExecReport, MarketSymbol, Side } from '../core/index.js';
import type { IntentDraft, StrategyContext } from './define.js';

/** A Position's own order: at most one at a time. */
export interface OwnOrder {
  readonly side: Side;
  /** Learnt from the first report of the order (or from the open orders); undefined until then. */
  refId: string | undefined;
  /** For a sell, the base amount asked (units at the helper's `scale`, as `filled`). */
  asked: bigint;
  /** Base filled so far, and in how many fills. */
  filled: bigint;
  fills: number;
  done: boolean;
  /** The intent object returned for it: its id is asked of `ctx.intentIdOf` once the engine stamped it. */
  draft: IntentDraft | undefined;
}

/** Ref ids of the helper's recent orders kept to claim late fills; older ones are forgotten. */
const REFS_KEPT = 16;

/**
 * Which reports are a Position's: its order in flight (at most one), learnt by the id the engine
 * gave its intent, and the ref ids of its recent orders (late fills of an order already closed).
 */
export class OwnOrders {
  /** The latest order, done or in flight; undefined before the first. */
  current: OwnOrder | undefined;
  private readonly refs = new Set<string>();

  constructor(private readonly market: MarketSymbol) {}

  /** Whether the helper ever made an order (a holding found before any is adopted). */
  get everOrdered(): boolean {
    return this.current !== undefined;
  }

  start(side: Side, asked: bigint): void {
    this.current = { side, refId: undefined, asked, filled: 0n, fills: 0, done: false, draft: undefined };
  }

  /** Remembers the intent object of the order in flight, whose id the engine will give it. */
  sent(draft: IntentDraft): IntentDraft {
    if (this.current) this.current.draft = draft;
    return draft;
  }

  /**
   * Whether a report is of the helper's orders: by the id the engine gave its intent; where the
   * context cannot tell it (a context of an older kit), the first unseen report while its order
   * awaits one is taken as its own.
   */
  claims(r: ExecReport, ctx: StrategyContext): boolean {
    if (this.refs.has(r.refId)) return true;
    const o = this.current;
    if (!o || o.done) return false;
    this.learnRef(o, ctx);
    if (o.refId !== undefined) return o.refId === r.refId;
    if (r.kind === 'quote-executed' || r.kind === 'transferred' || (r.kind === 'filled' && (r.market !== this.market || r.side !== o.side)))
      return false;
    this.own(o, r.refId);
    return true;
  }

  /**
   * Learns the order's ref_id from the strategy's open orders when no report has named it yet; true
   * when the venue closed the order after its fills were reported (the close sends no report of its
   * own; see the `orderDone` of a filled report): it is no longer among the open orders.
   */
  closedAtVenue(o: OwnOrder, ctx: StrategyContext): boolean {
    const open = ctx.account.openOrders(this.market);
    this.learnRef(o, ctx);
    if (o.refId === undefined) {
      const candidates = open.filter((v) => v.side === o.side && v.type === 'MARKET' && !this.refs.has(v.refId));
      if (candidates.length === 1) this.own(o, candidates[0]!.refId);
      return false;
    }
    return o.fills > 0 && !open.some((v) => v.refId === o.refId);
  }

  /** The order's id, once the engine stamped its intent (`ctx.intentIdOf`). */
  private learnRef(o: OwnOrder, ctx: StrategyContext): void {
    if (o.refId !== undefined || o.draft === undefined || typeof ctx.intentIdOf !== 'function') return;
    const id = ctx.intentIdOf(o.draft);
    if (id !== undefined) this.own(o, id);
  }

  private own(o: OwnOrder, refId: string): void {
    o.refId = refId;
    this.refs.add(refId);
    if (this.refs.size > REFS_KEPT) this.refs.delete(this.refs.values().next().value as string);
  }
}
