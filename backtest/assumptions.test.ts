import { describe, expect, it } from 'vitest';
import { DEFAULT_RISK_LIMITS } from '../src/risk/limits.js';
import { buildManifest, gapsOf, manifestRows, manifestToJson, medianSpacing } from './assumptions.js';
import { duration } from './report/report.js';

const H = 3_600_000;
const T0 = Date.UTC(2024, 0, 1);

describe('the assumptions manifest', () => {
  const times = Float64Array.from([0, 1, 2, 3, 8, 9, 10, 20, 21].map((h) => T0 + h * H));

  it('finds the data gaps: intervals longer than three median spacings', () => {
    expect(medianSpacing(times)).toBe(H);
    const g = gapsOf(times);
    expect(g).toEqual({
      count: 2,
      thresholdMs: 3 * H,
      largest: { fromAt: T0 + 10 * H, toAt: T0 + 20 * H, ms: 10 * H },
      missingMs: 4 * H + 9 * H,
    });
    expect(gapsOf(Float64Array.from([T0]))).toEqual({ count: 0, thresholdMs: null, missingMs: 0 });
  });

  it('gives the median spacing with and without one spacing holding most intervals, as sorting them does', () => {
    const sorted = (t: number[]): number => {
      const d = t
        .slice(1)
        .map((x, i) => x - t[i]!)
        .sort((a, b) => a - b);
      const mid = d.length >> 1;
      return d.length % 2 ? d[mid]! : (d[mid - 1]! + d[mid]!) / 2;
    };
    // a majority spacing (odd and even counts, at either end), exactly half, and none
    const cases = [
      [0, 1, 2, 3, 10],
      [0, 5, 6, 7, 8],
      [0, 1, 2, 9, 30, 31],
      [0, 1, 2, 9, 30],
      [0, 2, 5, 9, 14, 20],
      [0, 3, 4, 5, 6, 7, 20, 40],
    ];
    for (const c of cases) expect(medianSpacing(Float64Array.from(c)), c.join(',')).toBe(sorted(c));
  });

  it('states fill model, costs, latency, data, warm-up and which risk rules were on', () => {
    const m = buildManifest({
      fillModel: { name: 'points', rule: 'next point' },
      feeBps: 10,
      slippageBps: 5,
      source: 'prices.csv',
      times,
      params: { fast: 10, slow: 30 },
      initial: { USD: '10000' },
      limits: { ...DEFAULT_RISK_LIMITS, max_drawdown_pct: 20 },
    });
    expect(m.warmUp).toMatchObject({ points: 30, param: 'slow' });
    expect(m.latency.ms).toBeNull();
    const rules = Object.fromEntries(m.riskRules.map((r) => [r.rule, r]));
    expect(rules['kill switch: max drawdown']).toEqual({
      rule: 'kill switch: max drawdown',
      value: '20 %',
      active: true,
      key: 'risk.max_drawdown_pct',
    });
    expect(rules['kill switch: daily loss limit']!.active).toBe(false);
    expect(rules['max order notional']).toMatchObject({ value: '25000', active: true });
    const json = manifestToJson(m);
    expect(json).toMatchObject({
      fill_model: 'points',
      fee_bps: 10,
      slippage_bps: 5,
      latency_ms: null,
      data: { points: 9, first: '2024-01-01T00:00:00Z', gaps: { count: 2, largest: { from: '2024-01-01T10:00:00Z', ms: 10 * H } } },
      warm_up: { points: 30, param: 'slow' },
    });
    const rows = Object.fromEntries(manifestRows(m, duration));
    expect(rows['Data gaps']).toBe(
      '2 intervals longer than 3h, 13h missing in all; the longest 10h from 2024-01-01T10:00:00Z to 2024-01-01T20:00:00Z',
    );
    expect(rows['Risk rules active']).toContain('kill switch: max drawdown 20 %');
    expect(rows['Risk rules off']).toContain('kill switch: daily loss limit');
    expect(rows['Warm-up']).toMatch(/^30 points \(slow=30\)/);
  });

  it('names no slippage figure for the book model: the walk over the recorded levels is the slippage', () => {
    const book = buildManifest({
      fillModel: { name: 'book', rule: 'recorded book' },
      feeBps: 10,
      slippageBps: 0,
      latencyMs: 250,
      source: 'run.jsonl',
      times,
      params: {},
      initial: { USD: '10000' },
      limits: DEFAULT_RISK_LIMITS,
    });
    expect(book.slippage.bps).toBeNull();
    expect(manifestToJson(book)).toMatchObject({
      fill_model: 'book',
      slippage_bps: null,
      slippage: expect.stringMatching(/walking the book is the slippage.*no bps figure applies/),
      latency_ms: 250,
    });
    expect(Object.fromEntries(manifestRows(book, duration)).Slippage).toMatch(
      /^none added: the book model fills at the recorded levels' prices/,
    );
    const points = buildManifest({
      fillModel: { name: 'points', rule: 'next point' },
      feeBps: 10,
      slippageBps: 5,
      source: 'p.csv',
      times,
      params: {},
      initial: { USD: '1' },
      limits: DEFAULT_RISK_LIMITS,
    });
    expect(Object.fromEntries(manifestRows(points, duration)).Slippage).toBe('5 bps against the trader');
    expect(manifestToJson(points)).toMatchObject({ slippage_bps: 5, slippage: '5 bps against the trader' });
  });

  it("says what a recording's warm-up history warmed the strategy on, and what is left cold", () => {
    const base = {
      fillModel: { name: 'points', rule: 'next point' },
      feeBps: 10,
      slippageBps: 0,
      source: 'run.jsonl',
      times,
      params: { fast: 2, slow: 3 },
      initial: { USD: '1' },
      limits: DEFAULT_RISK_LIMITS,
    };
    const header = buildManifest({ ...base, warmedOn: { events: 3, from: 'header' } }).warmUp.note;
    expect(header).toBe(
      "3 points (slow=3): warmed first on the recorded run's warm-up history, as it was live: 3 prices from the recording's header, so it can decide from the first recorded point",
    );
    const history = buildManifest({ ...base, warmedOn: { events: 1, from: 'history' } }).warmUp.note;
    expect(history).toMatch(
      /: 1 price from its history: lines \(a recording from before headers held them\), so it needs 2 more points before it can decide$/,
    );
    const none = buildManifest({ ...base, warmedOn: { events: 0, from: 'none' } }).warmUp.note;
    expect(none).toBe(
      '3 points (slow=3): the strategy starts cold at the first point (the recording holds no warm-up history: neither its header nor history lines), so it cannot decide in its first 3 points',
    );
    expect(buildManifest(base).warmUp.note).toMatch(/starts cold at the first point \(no history is loaded before it\)/);
  });
});
