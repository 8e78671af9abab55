import { type Dec } from '../core/decimal.js';
import { assetDecimals, isFiat } from '../core/markets.js';
import { InputError } from '../core/errors.js';
import { type Rng } from '../core/rng.js';
import { KNOWN_ASSETS } from './catalog.js';
import { type Ledger } from './ledger.js';
import { amount } from './order-rules.js';

/** The crypto networks a deposit may name (the spec's 10-value CryptoNetwork). */
export const CRYPTO_NETWORKS = ['BITCOIN', 'ETHEREUM', 'BITCOIN_CASH', 'LITECOIN', 'SOLANA', 'POLYGON_POS', 'BASE', 'ARBITRUM_ONE', 'INK', 'XLAYER'] as const;

export type TransferStatus = 'PENDING' | 'COMPLETED' | 'FAILED';

/** A movement into or out of a profile. Issue 4 adds withdrawals, internal transfers and listing. */
export interface SimTransfer {
  readonly id: string;
  readonly seq: number;
  readonly activityId: string;
  readonly customerId: string;
  readonly profileId: string;
  readonly refId: string | undefined;
  readonly amount: Dec;
  readonly total: Dec;
  readonly fee: Dec;
  readonly asset: string;
  readonly balanceAsset: string;
  readonly direction: 'CREDIT' | 'DEBIT';
  readonly type: string;
  readonly status: TransferStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly cryptoNetwork: string | undefined;
  readonly destinationAddress: string | undefined;
  readonly cryptoTxHash: string | undefined;
  readonly metadata: Readonly<Record<string, string>>;
}

export interface DepositCommand {
  readonly profileId: string;
  readonly asset: unknown;
  readonly amount: unknown;
  readonly cryptoNetwork?: unknown;
  readonly cryptoAddress?: unknown;
}

/**
 * The transfer records of the sim. For now: sandbox deposits (crypto with a network, fiat without),
 * credited at once and recorded as COMPLETED CRYPTO_DEPOSIT or WIRE_DEPOSIT transfers.
 */
export class TransferStore {
  readonly transfers: SimTransfer[] = [];

  constructor(
    private readonly ledger: Ledger,
    private readonly rng: Rng,
    readonly customerId: string,
  ) {}

  deposit(cmd: DepositCommand, nowMs: number): SimTransfer {
    const asset = depositAsset(cmd.asset);
    const qty = amount(cmd.amount, 'amount', assetDecimals(asset));
    if (qty === undefined) throw new InputError('amount', 'required: the amount to deposit as a decimal string, e.g. "1000"');
    const network = depositNetwork(asset, cmd.cryptoNetwork);
    if (cmd.cryptoAddress !== undefined && typeof cmd.cryptoAddress !== 'string') throw new InputError('crypto_address', 'expected a string');
    const crypto = network !== undefined;
    const transfer: SimTransfer = {
      id: this.rng.uuid(),
      seq: this.transfers.length + 1,
      activityId: this.rng.uuid(),
      customerId: this.customerId,
      profileId: cmd.profileId,
      refId: undefined,
      amount: qty,
      total: qty,
      fee: qty.minus(qty),
      asset,
      balanceAsset: asset,
      direction: 'CREDIT',
      type: crypto ? 'CRYPTO_DEPOSIT' : 'WIRE_DEPOSIT',
      status: 'COMPLETED',
      createdAt: nowMs,
      updatedAt: nowMs,
      cryptoNetwork: network,
      destinationAddress: crypto ? ((cmd.cryptoAddress as string | undefined) ?? this.address()) : undefined,
      cryptoTxHash: crypto ? this.hex(32) : undefined,
      metadata: {},
    };
    this.ledger.credit(cmd.profileId, asset, qty);
    this.transfers.push(transfer);
    return transfer;
  }

  private address(): string {
    return `0x${this.hex(20)}`;
  }

  private hex(bytes: number): string {
    let out = '';
    while (out.length < bytes * 2) out += this.rng.nextUint32().toString(16).padStart(8, '0');
    return out.slice(0, bytes * 2);
  }
}

function depositAsset(value: unknown): string {
  if (typeof value === 'string' && KNOWN_ASSETS.includes(value)) return value;
  throw new InputError('asset', `${value === undefined ? 'required' : JSON.stringify(value) + ' is not an asset of the sandbox'}: use one of ${KNOWN_ASSETS.join(', ')}`);
}

function depositNetwork(asset: string, value: unknown): string | undefined {
  if (isFiat(asset)) {
    if (value !== undefined && value !== '') throw new InputError('crypto_network', `not allowed for the fiat asset ${asset}: remove it`);
    return undefined;
  }
  if (typeof value === 'string' && (CRYPTO_NETWORKS as readonly string[]).includes(value)) return value;
  throw new InputError('crypto_network', `${value === undefined ? 'required' : JSON.stringify(value) + ' is not valid'} for a ${asset} deposit: use one of ${CRYPTO_NETWORKS.join(', ')}`);
}
