import type { Subscriber } from 'rxjs';
// rxjs's own modules of these classes, not its index: the index loads every operator (some 220 files),
// which a backtest, which uses none, would load at start (the same modules the index re-exports)
import { Observable } from 'rxjs/internal/Observable';
/**
 * A hot stream for the per-point and per-intent paths (a backtest's source streams, the kernel's
 * reports and decisions): an rxjs Observable (subscribe, pipe and Subscription as usual)
 * whose `next` calls each subscriber in a plain loop. An rxjs Subject wraps every `next` in a fresh
 * closure and iterates its observers through a helper, which at a million points was a measurable
 * part of a backtest's per-point cost. Each value goes through the subscriber rxjs made (so errors
 * thrown by a handler are reported as rxjs reports them); a subscriber added or removed during a
 * `next` takes effect from the next value.
 */
export class HotStream<T> extends Observable<T> {
  private subscribers: ReadonlyArray<Subscriber<T>> = [];
  private done = false;

  constructor() {
    super((subscriber) => {
      if (this.done) {
        subscriber.complete();
        return undefined;
      }
      this.subscribers = [...this.subscribers, subscriber];
      return () => {
        this.subscribers = this.subscribers.filter((x) => x !== subscriber);
      };
    });
  }

  next(value: T): void {
    const subs = this.subscribers;
    for (let i = 0; i < subs.length; i++) subs[i]!.next(value);
  }

  complete(): void {
    if (this.done) return;
    this.done = true;
    const subs = this.subscribers;
    this.subscribers = [];
    for (const s of subs) s.complete();
  }
}
