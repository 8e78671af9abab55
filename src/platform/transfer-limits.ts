/**
 * The platform's transfer limits as data: the transfer types, how a limit is stated (the types it
 * covers, its period, its USD amount), the sandbox's defaults, and a limit as List Transfer Limits
 * reports it. The simulator counts transfers against them (src/sim/platform/transfer-limit-rules.ts);
 * the engine keeps the run's reading (src/engine/transfer-limits.ts).
 */
import { type Dec } from '../core/decimal.js';

/** Every transfer type of the platform (the spec's TransferType enum). */
export const TRANSFER_TYPES = [
  'INTERNAL_TRANSFER_DEBIT', 'INTERNAL_TRANSFER_CREDIT', 'CRYPTO_DEPOSIT', 'CRYPTO_WITHDRAWAL', 'WIRE_DEPOSIT', 'WIRE_WITHDRAWAL',
  'SEN_DEPOSIT', 'SEN_WITHDRAWAL', 'BANK_DEPOSIT', 'BANK_WITHDRAWAL', 'PAXOS_TRANSFER_DEBIT', 'PAXOS_TRANSFER_CREDIT',
  'SIGNET_DEPOSIT', 'SIGNET_WITHDRAWAL', 'CBIT_WITHDRAWAL', 'CBIT_DEPOSIT', 'CUBIX_DEPOSIT', 'CUBIX_WITHDRAWAL',
] as const;

/** A limit as configured: the transfer types it covers, its period (0 = per transaction) and USD amount. */
export interface TransferLimitConfig {
  readonly transferTypes: readonly string[];
  readonly periodSeconds: number;
  /** USD, decimal string. */
  readonly limit: string;
}

/** The sandbox's default limits (USD): per transaction and per rolling day, for the debit-side types. */
export const DEFAULT_TRANSFER_LIMITS: readonly TransferLimitConfig[] = [
  { transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 0, limit: '1000000' },
  { transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 86_400, limit: '5000000' },
  { transferTypes: ['PAXOS_TRANSFER_DEBIT'], periodSeconds: 86_400, limit: '5000000' },
  { transferTypes: ['CRYPTO_WITHDRAWAL'], periodSeconds: 0, limit: '100000' },
  { transferTypes: ['CRYPTO_WITHDRAWAL'], periodSeconds: 86_400, limit: '250000' },
  { transferTypes: ['WIRE_WITHDRAWAL'], periodSeconds: 86_400, limit: '1000000' },
];

/** One limit with what is left of it now (List Transfer Limits). */
export interface TransferLimitView {
  /** Absent for per-transaction limits (as on the platform). */
  readonly id: string | undefined;
  readonly ruleId: string;
  readonly transferTypes: readonly string[];
  readonly periodSeconds: number;
  readonly limit: Dec;
  readonly remaining: Dec;
  readonly limitAsset: 'USD';
}
