import { describe, expect, it } from 'vitest';
import { D, type Dec } from '../core/index.js';
import { TransferLimitBook, type TransferLimitReading } from './transfer-limits.js';

const usd = (remaining: string, perTransaction = false): TransferLimitReading => ({
  limitAsset: 'USD',
  remaining: new D(remaining),
  perTransaction,
});
const prices: Record<string, Dec> = { BTC: new D('50000') };
const price = (asset: string): Dec | undefined => prices[asset];

describe('TransferLimitBook', () => {
  it('knows nothing until a reading arrives: no check', () => {
    const book = new TransferLimitBook();
    expect(book.remaining('USD', price)).toBeUndefined();
    book.apply([], book.beginRead(), 0);
    expect(book.remaining('USD', price)).toBeUndefined(); // no limit covers internal transfers
  });

  it('takes the tightest limit: per-transaction caps as read, periodic ones less what was spent since', () => {
    const book = new TransferLimitBook();
    book.apply([usd('1000', true), usd('5000'), usd('2500')], book.beginRead(), 0);
    expect(book.remaining('USD', price)?.toFixed()).toBe('1000');
    book.spend('t1', 'USD', new D('1800'));
    expect(book.remaining('USD', price)?.toFixed()).toBe('700');
    book.spend('t2', 'USD', new D('900'));
    expect(book.remaining('USD', price)?.toFixed()).toBe('0');
  });

  it('converts to the asset at its price, rounding down; unknown price: no check', () => {
    const book = new TransferLimitBook();
    book.apply([usd('1000')], book.beginRead(), 0);
    book.spend('t1', 'BTC', new D('0.01')); // 500 USD
    expect(book.remaining('BTC', price)?.toFixed()).toBe('0.01');
    book.apply([usd('100')], book.beginRead(), 0);
    expect(book.remaining('ETH', price)).toBeUndefined();
    expect(book.remaining('BTC', price)?.toFixed()).toBe('0'); // 100 − 500 (t1 still in flight)
    book.settled('t1', true); // refused: nothing moved
    expect(book.remaining('BTC', price)?.toFixed()).toBe('0.002');
  });

  it('stops subtracting a transfer only once a reading requested after its answer arrives', () => {
    const book = new TransferLimitBook();
    book.apply([usd('1000')], book.beginRead(), 0);
    book.spend('t1', 'USD', new D('300'));
    const during = book.beginRead(); // requested while t1 is in flight: may not include it
    book.settled('t1', false);
    book.apply([usd('1000')], during, 1);
    expect(book.remaining('USD', price)?.toFixed()).toBe('700');
    book.apply([usd('700')], book.beginRead(), 2); // requested after the answer: includes it
    expect(book.remaining('USD', price)?.toFixed()).toBe('700');
    expect(book.lastReadAt).toBe(2);
  });
});
