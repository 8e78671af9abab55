import { describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/test-clock.js';
import { memoryLogger } from '../../../test/api/helpers.js';
import { AbortedError, ServerError, TimeoutError, TransportError, VenueUnreachableError, outcomeUnknown } from '../errors.js';
import { CircuitBreaker, type BreakerTicket } from './circuit-breaker.js';

const refused = (): TransportError => new TransportError('GetOrder: network failure (ECONNREFUSED), request not sent', { operation: 'GetOrder', sent: false });

function setup(failures = 5): { clock: TestClock; breaker: CircuitBreaker; lines: () => string[] } {
  const clock = new TestClock(Date.UTC(2026, 0, 5, 12, 0, 0));
  const log = memoryLogger(undefined, 'info');
  const breaker = new CircuitBreaker({ failures }, clock, log.logger);
  return { clock, breaker, lines: () => log.lines().split('\n').filter((l) => l !== '') };
}

/** One attempt: admitted (or refused, returning the error), then settled with `err`. */
function attempt(b: CircuitBreaker, method: string, err?: unknown): BreakerTicket | VenueUnreachableError {
  let ticket: BreakerTicket;
  try {
    ticket = b.admit('GetOrder', method);
  } catch (e) {
    if (e instanceof VenueUnreachableError) return e;
    throw e;
  }
  b.settle(ticket, err);
  return ticket;
}

describe('CircuitBreaker', () => {
  it('opens after N connection failures in a row, not before, and logs it once', () => {
    const { breaker, lines, clock } = setup(5);
    for (let i = 0; i < 4; i++) attempt(breaker, 'GET', refused());
    expect(breaker.isOpen()).toBe(false);
    attempt(breaker, 'GET', new TimeoutError('x: connect timed out', { operation: 'x', phase: 'connect' }));
    expect(breaker.isOpen()).toBe(true);
    expect(breaker.state().unreachableSince).toBe(clock.now());
    for (let i = 0; i < 50; i++) attempt(breaker, 'GET', refused());
    const warns = lines().filter((l) => l.includes('"level":40'));
    expect(warns).toHaveLength(1);
    expect(warns[0]).toContain(`venue unreachable since ${new Date(clock.now()).toISOString()}`);
  });

  it('an answer in between resets the count: only failures in a row open it', () => {
    const { breaker } = setup(3);
    attempt(breaker, 'GET', refused());
    attempt(breaker, 'GET', refused());
    attempt(breaker, 'GET', new ServerError('503', { operation: 'GetOrder', status: 503 }));
    attempt(breaker, 'GET', refused());
    attempt(breaker, 'GET', refused());
    expect(breaker.isOpen()).toBe(false);
    attempt(breaker, 'GET', new AbortedError('GetOrder'));
    attempt(breaker, 'GET', new TimeoutError('x: body stalled', { operation: 'x', phase: 'body' }));
    expect(breaker.state().consecutiveFailures).toBe(0);
  });

  it('while open: writes fail fast as never sent; reads probe at most once a second, one at a time', () => {
    const { breaker, clock } = setup(2);
    attempt(breaker, 'GET', refused());
    attempt(breaker, 'GET', refused());
    const write = attempt(breaker, 'POST');
    expect(write).toBeInstanceOf(VenueUnreachableError);
    expect((write as VenueUnreachableError).code).toBe('VENUE_UNREACHABLE');
    expect(outcomeUnknown(write)).toBe(false);
    let probes = 0;
    // a read every 50 ms for 10 s, every probe refused
    for (let t = 0; t < 10_000; t += 50) {
      clock.advance(50);
      const r = attempt(breaker, 'GET', refused());
      if (!(r instanceof VenueUnreachableError)) probes++;
      expect(attempt(breaker, 'DELETE')).toBeInstanceOf(VenueUnreachableError);
    }
    expect(probes).toBe(10);
    expect(breaker.state().probes).toBe(10);
    // a probe in flight keeps every other read out, even a second later
    clock.advance(1_000);
    const probe = breaker.admit('GetOrder', 'GET');
    expect(probe.probe).toBe(true);
    clock.advance(5_000);
    expect(() => breaker.admit('ListOrders', 'GET')).toThrow(VenueUnreachableError);
    breaker.settle(probe, refused());
    expect(breaker.admit('ListOrders', 'GET').probe).toBe(true);
  });

  it('the first answer closes it: exactly one warn when it opened and one info with the duration', () => {
    const { breaker, clock, lines } = setup(3);
    const since = clock.now();
    for (let i = 0; i < 3; i++) attempt(breaker, 'GET', refused());
    clock.advance(20_000);
    const probe = attempt(breaker, 'GET', undefined);
    expect(probe).toEqual({ probe: true });
    expect(breaker.isOpen()).toBe(false);
    expect(breaker.state()).toEqual({ consecutiveFailures: 0, probes: 0, lastError: refused().message });
    expect(attempt(breaker, 'POST')).toEqual({ probe: false });
    const out = lines();
    expect(out.filter((l) => l.includes('"level":40'))).toHaveLength(1);
    const infos = out.filter((l) => l.includes('"level":30'));
    expect(infos).toHaveLength(1);
    expect(infos[0]).toContain(`venue reachable again after 20.0 s (unreachable since ${new Date(since).toISOString()}, 1 probes)`);
    expect(JSON.parse(infos[0] as string)).toMatchObject({ downMs: 20_000 });
  });

  it('an HTTP error answering the probe closes it too (the venue is there)', () => {
    const { breaker, clock } = setup(1);
    attempt(breaker, 'GET', refused());
    clock.advance(1_000);
    attempt(breaker, 'GET', new ServerError('GetOrder: 503', { operation: 'GetOrder', status: 503 }));
    expect(breaker.isOpen()).toBe(false);
  });
});
