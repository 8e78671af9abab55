/**
 * A fixed-capacity list of the latest items, oldest first: every live structure of the operations
 * server is bounded, so a run that lasts weeks holds no more than a run of a minute.
 */
export class Ring<T> {
  private readonly items: (T | undefined)[];
  private start = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`ring capacity must be a whole number ≥ 1, got ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  get length(): number {
    return this.size;
  }

  push(item: T): void {
    if (this.size < this.capacity) {
      this.items[(this.start + this.size) % this.capacity] = item;
      this.size++;
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
  }

  /** The latest `limit` items (all by default), oldest first. */
  list(limit = this.size): T[] {
    const n = Math.min(limit, this.size);
    const out: T[] = [];
    for (let i = this.size - n; i < this.size; i++) out.push(this.items[(this.start + i) % this.capacity] as T);
    return out;
  }
}
