import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type PlatformSandbox, refusal, startPlatformSandbox } from '../support/sandbox-platform.js';

describe('sandbox settlement transactions through the typed client', () => {
  let sb: PlatformSandbox;
  let target: string;
  const iso = (ms: number): string => new Date(ms).toISOString();
  const legs = [
    { direction: 'DELIVER', asset: 'USD', amount: '1000' },
    { direction: 'RECEIVE', asset: 'BTC', amount: '0.01' },
  ] as const;

  beforeEach(async () => {
    sb = await startPlatformSandbox({ funding: { USD: '5000' } });
    target = (await sb.other.createProfile({ nickname: 'cp-settle' })).id;
    await sb.other.createSandboxDeposit(target, { asset: 'BTC', amount: '0.02', crypto_network: 'BITCOIN' });
  });
  afterEach(() => sb.close());

  const create = (ref: string, extra: Record<string, unknown> = {}) =>
    sb.api.createTransaction({
      ref_id: ref,
      source_profile_id: 'default',
      target_profile_id: target,
      legs,
      settlement_window_end: iso(sb.clock.now() + 60_000),
      ...extra,
    });

  it('goes PENDING → AFFIRMED → SETTLED, moving every leg atomically once the window opens and both sides hold enough', async () => {
    const { api, other } = sb;
    const tx = await create('s-1', { settlement_window_start: iso(sb.clock.now() + 10_000) });
    expect(tx).toMatchObject({
      status: 'PENDING',
      legs: [
        expect.objectContaining({ id: expect.any(String), direction: 'DELIVER', amount: '1000' }),
        expect.objectContaining({ direction: 'RECEIVE' }),
      ],
    });
    expect((await refusal(api.affirmTransaction(tx.id))).status).toBe(403);
    expect((await other.affirmTransaction(tx.id)).status).toBe('AFFIRMED');
    expect((await refusal(other.affirmTransaction(tx.id))).status).toBe(400);
    sb.advance(5_000);
    expect((await api.getTransaction(tx.id)).status).toBe('AFFIRMED');
    sb.advance(5_000);
    expect((await api.getTransaction(tx.id)).status).toBe('SETTLED');
    expect((await api.getProfileBalance('default', 'USD')).available).toBe('4000');
    expect((await api.getProfileBalance('default', 'BTC')).available).toBe('0.01');
    expect((await other.getProfileBalance(target, 'USD')).available).toBe('1000');
    expect((await other.getProfileBalance(target, 'BTC')).available).toBe('0.01');
  });

  it('waits while a side lacks funds (nothing moves) and settles when funds arrive inside the window', async () => {
    const { api, other } = sb;
    const tx = await create('s-2', {
      legs: [
        { direction: 'DELIVER', asset: 'USD', amount: '6000' },
        { direction: 'RECEIVE', asset: 'BTC', amount: '0.01' },
      ],
    });
    await other.affirmTransaction(tx.id);
    sb.advance(2_000);
    expect((await api.getTransaction(tx.id)).status).toBe('AFFIRMED');
    expect((await other.getProfileBalance(target, 'BTC')).available).toBe('0.02');
    await api.createSandboxDeposit('default', { asset: 'USD', amount: '1000' });
    sb.advance(1_000);
    expect((await api.getTransaction(tx.id)).status).toBe('SETTLED');
  });

  it('expires at the window end when not settled, pending or affirmed', async () => {
    const { api, other } = sb;
    const pending = await create('s-3');
    const affirmed = await create('s-4', { legs: [{ direction: 'RECEIVE', asset: 'BTC', amount: '5' }] });
    await other.affirmTransaction(affirmed.id);
    sb.advance(60_000);
    for (const id of [pending.id, affirmed.id])
      expect(await api.getTransaction(id)).toMatchObject({ status: 'EXPIRED', updated_at: pending.settlement_window_end });
    expect((await refusal(other.affirmTransaction(pending.id))).status).toBe(400);
  });

  it('cancels only from PENDING and only by the source owner', async () => {
    const { api, other } = sb;
    const tx = await create('s-5');
    expect((await refusal(other.cancelTransaction(tx.id))).status).toBe(403);
    expect((await api.cancelTransaction(tx.id)).status).toBe('CANCELLED');
    const affirmed = await create('s-6', { legs: [{ direction: 'RECEIVE', asset: 'BTC', amount: '5' }] });
    await other.affirmTransaction(affirmed.id);
    const r = await refusal(api.cancelTransaction(affirmed.id));
    expect([r.status, r.detail]).toEqual([409, expect.stringMatching(/AFFIRMED: only a PENDING transaction can be cancelled/)]);
  });

  it('checks ownership, input and ref_id on create, and lists what the caller is party to', async () => {
    const { api, other } = sb;
    expect(
      (await refusal(other.createTransaction({ ref_id: 'x', source_profile_id: 'default', target_profile_id: target, legs }))).status,
    ).toBe(403);
    expect(
      (await refusal(api.createTransaction({ ref_id: 'x', source_profile_id: 'default', target_profile_id: target, legs: [] }))).meta
        ?.field,
    ).toBe('legs');
    expect(
      (
        await refusal(
          api.createTransaction({
            ref_id: 'x',
            source_profile_id: 'default',
            target_profile_id: target,
            legs: [{ direction: 'SIDEWAYS', asset: 'USD', amount: '1' }],
          }),
        )
      ).meta?.field,
    ).toBe('legs[0].direction');
    expect((await refusal(create('x', { settlement_window_end: iso(sb.clock.now() - 1) }))).meta?.field).toBe('settlement_window_end');
    const tx = await create('dup');
    const raw = await sb.http.post(
      '/v2/settlement/transactions',
      {
        ref_id: 'dup',
        source_profile_id: 'default',
        target_profile_id: target,
        legs: [{ direction: 'DELIVER', asset: 'USD', amount: '1' }],
      },
      await sb.http.token(),
    );
    expect([raw.status, raw.body.meta.existing.id]).toEqual([409, tx.id]);
    await api.cancelTransaction(tx.id);
    await create('live');
    expect((await other.listTransactions({ statuses: ['PENDING'] })).items.map((t) => t.ref_id)).toEqual(['live']);
    expect((await api.listTransactions({ statuses: ['CANCELLED'], target_profile_id: target })).items.map((t) => t.ref_id)).toEqual([
      'dup',
    ]);
    const outsider = await sb.http.get(
      `/v2/settlement/transactions/${tx.id}`,
      await sb.http.token(undefined, 'counterparty', 'counterparty-secret'),
    );
    expect(outsider.status).toBe(200);
    expect((await refusal(api.getTransaction('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
  });
});
