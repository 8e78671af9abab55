import { describe, expect, it } from 'vitest';
import { D } from '../core/index.js';
import { KillSwitch } from './kill-switch.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 11, 4, 9);

describe('KillSwitch', () => {
  it("keeps the day's opening equity and the peak through an operator's halt and its lift", () => {
    const ks = new KillSwitch({ daily_loss_limit: '5000' });
    expect(ks.observe(new D('100000'), T0)).toBeUndefined();
    expect(ks.observe(new D('95100'), T0 + 1)).toBeUndefined(); // 4,900 lost
    ks.trip('halted by an operator');
    expect(ks.observe(new D('95000'), T0 + 2)).toBeUndefined(); // marks followed while halted
    expect(ks.lift(['operator']).map((c) => c.kind)).toEqual(['operator']);
    expect(ks.tripped).toBeUndefined();
    expect(ks.marks()).toEqual({ day: '2026-12-04', dayOpenEquity: '100000', peak: '100000' });
    expect(ks.observe(new D('90200'), T0 + 3)).toBe('daily loss 9800.00 exceeds 5000');
  });

  it("trips a loss rule during an operator's halt; each cause keeps its reason and is lifted on its own", () => {
    const ks = new KillSwitch({ daily_loss_limit: '100' });
    ks.observe(new D('1000'), T0);
    ks.trip('halted by an operator');
    expect(ks.observe(new D('850'), T0 + 1)).toMatch(/daily loss 150\.00/);
    ks.trip('ref_id a-1 already names a different record', { kind: 'ref-id-conflict' });
    expect(ks.causes.map((c) => [c.kind, c.lift, c.allowsReducing])).toEqual([
      ['operator', 'resume', true],
      ['daily-loss', 'kill-switch', true],
      ['ref-id-conflict', 'restart', false],
    ]);
    expect(ks.tripped).toBe('halted by an operator; daily loss 150.00 exceeds 100; ref_id a-1 already names a different record');
    expect(ks.allowsReducing).toBe(false);
    expect(ks.trip('halted by an operator again')).toBe(false); // a cause already active keeps its first reason
    ks.lift(['operator']);
    expect(ks.causes.map((c) => c.kind)).toEqual(['daily-loss', 'ref-id-conflict']);
    // lifting the loss trip takes the loss so far: the rule counts again from the equity last seen
    ks.lift(['daily-loss']);
    expect(ks.marks()).toMatchObject({ dayOpenEquity: '850', peak: '850' });
    expect(ks.causes.map((c) => c.kind)).toEqual(['ref-id-conflict']);
  });

  it('restores marks of the same UTC day only, and starts the next day from its first equity', () => {
    const ks = new KillSwitch({ daily_loss_limit: '5000', max_drawdown_pct: 50 });
    const kept = { day: '2026-12-04', dayOpenEquity: '100000', peak: '120000' };
    expect(ks.restore(kept, T0 + 3_600_000)).toBe(true);
    expect(ks.observe(new D('96000'), T0 + 3_600_000)).toBeUndefined();
    expect(ks.observe(new D('94000'), T0 + 3_600_001)).toBe('daily loss 6000.00 exceeds 5000');

    const tomorrow = new KillSwitch({ daily_loss_limit: '5000' });
    expect(tomorrow.restore(kept, T0 + DAY)).toBe(false);
    expect(tomorrow.observe(new D('94000'), T0 + DAY)).toBeUndefined();
    expect(tomorrow.marks()).toEqual({ day: '2026-12-05', dayOpenEquity: '94000', peak: '94000' });
    // marks seen already are never replaced by kept ones
    expect(tomorrow.restore({ ...kept, day: '2026-12-05' }, T0 + DAY)).toBe(false);
  });
});
