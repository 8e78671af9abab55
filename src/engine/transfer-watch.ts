import {
  VenueRejectedError,
  type ExecuteQuoteRequest,
  type PlaceOrderRequest,
  type TransferRequest,
  type Venue,
  type VenueTransfer,
} from '../venue/index.js';

/** Told when the venue has answered a transfer: `refused` when nothing moved. */
export type TransferSettled = (refId: string, refused: boolean) => void;

/**
 * The venue as the executors see it in a live run: every call passes through unchanged, and the
 * runner hears when a transfer has been answered (made, refused, or found by ref_id after an unknown
 * outcome), so it can count the transfer against the limits and read them again.
 */
export class TransferWatch implements Venue {
  readonly name: string;

  constructor(
    private readonly venue: Venue,
    private readonly onSettled: TransferSettled,
  ) {
    this.name = venue.name;
  }

  async transfer(req: TransferRequest): Promise<VenueTransfer> {
    try {
      const t = await this.venue.transfer(req);
      this.onSettled(req.refId, false);
      return t;
    } catch (e) {
      // refused: nothing moved; an unknown outcome may have moved funds, so it still counts
      this.onSettled(req.refId, e instanceof VenueRejectedError);
      throw e;
    }
  }

  async findTransferByRef(refId: string): Promise<VenueTransfer | undefined> {
    const t = await this.venue.findTransferByRef(refId);
    this.onSettled(refId, t === undefined);
    return t;
  }

  placeOrder(req: PlaceOrderRequest) {
    return this.venue.placeOrder(req);
  }
  cancelOrder(orderId: string) {
    return this.venue.cancelOrder(orderId);
  }
  getOrder(orderId: string) {
    return this.venue.getOrder(orderId);
  }
  findOrderByRef(refId: string) {
    return this.venue.findOrderByRef(refId);
  }
  listOpenOrders() {
    return this.venue.listOpenOrders();
  }
  listFills(sinceMs: number) {
    return this.venue.listFills(sinceMs);
  }
  listQuotes(market: string) {
    return this.venue.listQuotes(market);
  }
  executeQuote(req: ExecuteQuoteRequest) {
    return this.venue.executeQuote(req);
  }
  getQuoteExecution(executionId: string) {
    return this.venue.getQuoteExecution(executionId);
  }
  findQuoteExecutionByRef(refId: string) {
    return this.venue.findQuoteExecutionByRef(refId);
  }
  balances() {
    return this.venue.balances();
  }
}
