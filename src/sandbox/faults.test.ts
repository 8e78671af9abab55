import { describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { FaultInjector, describeFaults, parseFaults } from './faults.js';
import { parseRateLimits } from './rate-limits.js';

describe('fault specs', () => {
  it('parses modes, targets, rates, counts, durations and settings', () => {
    const s = parseFaults(
      'latency=50ms, 5xx=0.05,error429=2%,drop@/v2/orders=3x,commit-drop@CreateOrder=once,truncate=0.5,seed=7,retry-after=2s',
    );
    expect(s).toEqual({
      rules: [
        { mode: 'latency', latencyMs: 50 },
        { mode: 'error5xx', rate: 0.05 },
        { mode: 'error429', rate: 0.02 },
        { mode: 'drop', target: '/v2/orders', count: 3 },
        { mode: 'commit-drop', target: 'CreateOrder', count: 1 },
        { mode: 'truncate', rate: 0.5 },
      ],
      seed: 7,
      retryAfterSec: 2,
    });
    expect(describeFaults(s.rules, 2)).toBe(
      'latency=50ms, error5xx=5%, error429=2% (Retry-After 2s), drop@/v2/orders=next 3, commit-drop@CreateOrder=next 1, truncate=50%',
    );
    expect(describeFaults([], 1)).toBe('none');
  });

  it('names the bad part of a spec', () => {
    expect(() => parseFaults('explode=0.1')).toThrow(/unknown fault mode "explode"/);
    expect(() => parseFaults('error5xx=1.5')).toThrow(InputError);
    expect(() => parseFaults('latency=fast')).toThrow(/duration/);
    expect(() => parseFaults('drop')).toThrow(/mode\[@target\]=value/);
  });

  it('repeats the same faults for the same seed, and spends counted rules', () => {
    const run = (seed: number): string[] => {
      const f = new FaultInjector(parseFaults('error5xx=0.3,drop=0.2'), new Rng(seed));
      return Array.from({ length: 40 }, () => f.decide('GetTicker', 'GET', '/v2/markets/BTCUSD/ticker').action);
    };
    expect(run(5)).toEqual(run(5));
    expect(run(5)).not.toEqual(run(6));
    expect(run(5).filter((a) => a !== 'none').length).toBeGreaterThan(5);
    const f = new FaultInjector({ rules: [] }, new Rng(1));
    f.add({ mode: 'commit-drop', target: 'CreateOrder', count: 1 });
    expect(f.decide('GetOrder', 'GET', '/v2/profiles/p/orders/1').action).toBe('none');
    expect(f.decide('CreateOrder', 'POST', '/v2/profiles/p/orders').action).toBe('commit-drop');
    expect(f.decide('CreateOrder', 'POST', '/v2/profiles/p/orders').action).toBe('none');
    expect(f.active()).toEqual([]);
  });

  it('leaves the token endpoint alone unless a rule targets it, and never commit-drops a read', () => {
    const f = new FaultInjector(parseFaults('drop=1,commit-drop@/v2/orders=1'), new Rng(1));
    expect(f.decide('Token', 'POST', '/oauth2/token', true).action).toBe('none');
    expect(f.decide('ListOrders', 'GET', '/v2/orders').action).toBe('drop');
    const g = new FaultInjector(parseFaults('commit-drop@/v2/orders=1'), new Rng(1));
    expect(g.decide('ListOrders', 'GET', '/v2/orders').action).toBe('none');
  });
});

describe('rate-limit specs', () => {
  it('parses on, off and settings', () => {
    expect(parseRateLimits('off')).toBeUndefined();
    expect(parseRateLimits('on')).toEqual({});
    expect(parseRateLimits('window=10s,penalty=1m,scale=0.1')).toEqual({ windowMs: 10_000, penaltyMs: 60_000, scale: 0.1 });
    expect(() => parseRateLimits('fast')).toThrow(/--rate-limits/);
  });
});
