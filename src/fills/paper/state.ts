import { z } from 'zod';
import { InputError } from '../../core/index.js';

/**
 * The paper account of `tradeloop run --paper` on real data, as it is kept between runs (in the
 * journal: see PaperStateStore). Money is decimal strings, times epoch ms. A restart rebuilds the
 * paper venue from it: the balances, the orders still open (with what they had filled), and the
 * recent fills and quote executions, so the run's reconciler finds every record the journal names.
 */
const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal string');
const side = z.enum(['BUY', 'SELL']);

const RequestSchema = z.object({
  refId: z.string().min(1),
  market: z.string().min(1),
  side,
  type: z.enum(['LIMIT', 'MARKET', 'POST_ONLY_LIMIT', 'STOP_MARKET', 'STOP_LIMIT']),
  baseAmount: decimal.optional(),
  quoteAmount: decimal.optional(),
  price: decimal.optional(),
  stopPrice: decimal.optional(),
  timeInForce: z.enum(['GTC', 'GTT', 'IOC', 'FOK']).optional(),
  expiresAt: z.number().optional(),
});

const OrderSchema = z.object({
  id: z.string().min(1),
  request: RequestSchema,
  createdAt: z.number(),
  status: z.string().min(1),
  amountFilled: decimal,
  notionalFilled: decimal,
  fills: z.number().int().min(0),
  closedAt: z.number().optional(),
});

const FillSchema = z.object({
  fillId: z.string().min(1),
  orderId: z.string().min(1),
  market: z.string().min(1),
  side,
  amount: decimal,
  price: decimal,
  commission: decimal,
  commissionAsset: z.string().min(1),
  at: z.number(),
});

const ExecutionSchema = z.object({
  executionId: z.string().min(1),
  refId: z.string().min(1),
  quoteId: z.string().min(1),
  market: z.string().min(1),
  side,
  price: decimal,
  baseAmount: decimal,
  quoteAmount: decimal,
  status: z.string().min(1),
  at: z.number(),
});

export const PaperStateSchema = z
  .object({
    version: z.literal(1),
    /** Last number used in the paper venue's ids (orders, quote executions): ids never repeat across restarts. */
    seq: z.number().int().min(0),
    /** Each asset's total (available plus what open orders hold). */
    balances: z.record(z.string(), decimal),
    orders: z.array(OrderSchema),
    fills: z.array(FillSchema),
    executions: z.array(ExecutionSchema),
  })
  .strict();

export type PaperState = z.infer<typeof PaperStateSchema>;
export type PaperOrderState = z.infer<typeof OrderSchema>;
export type PaperFillState = z.infer<typeof FillSchema>;
export type PaperExecutionState = z.infer<typeof ExecutionSchema>;

/** Where the paper account is kept between runs: the journal's meta table in `tradeloop run`. */
export interface PaperStateStore {
  load(): string | undefined;
  save(state: string): void;
}

/** The journal meta key the paper account is kept under. */
export const PAPER_STATE_META_KEY = 'paper_account';

/** Reads a kept paper account; a damaged one is refused naming what is wrong and the fix. */
export function parsePaperState(text: string): PaperState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw damaged(`it is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = PaperStateSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw damaged(`${first?.path.join('.') || 'the record'}: ${first?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

function damaged(what: string): InputError {
  return new InputError(
    'journal.path',
    `the paper account kept in this journal cannot be read (${what}): restore the journal from a backup, or point journal.path at a new file to start a new paper account`,
  );
}
