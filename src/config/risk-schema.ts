import { z } from 'zod';

/** A decimal amount: text, or a plain YAML number of up to 15 digits (see yaml-money.ts). */
export const decimalString = z
  .string({ error: 'must be a decimal amount, e.g. "1000" (quotes keep every digit)' })
  .regex(/^[0-9]*\.?[0-9]+$/, 'must be an unsigned decimal amount without exponent, e.g. "1000"');

/**
 * The user's risk limits, from the `risk:` section of the YAML config. Every limit is optional in
 * the file and has a conservative default.
 */
export const RiskLimitsSchema = z
  .object({
    /** Markets strategies may trade; empty means every trading market of the platform. */
    allowed_markets: z.array(z.string()).default([]),
    /** Largest notional of one order or quote execution, in the quote currency. */
    max_order_notional: decimalString.default('25000'),
    /** Smallest notional worth sending (the platform refuses orders below its minimum commission). */
    min_order_notional: decimalString.default('1'),
    /** Largest total holding per base asset, e.g. { BTC: "2" }. */
    max_position: z.record(z.string(), decimalString).default({}),
    max_open_orders: z.number().int().positive().default(50),
    max_intents_per_minute: z.number().int().positive().default(120),
    /** Limit prices further than this from mid are refused (the platform refuses takers beyond 15%). */
    price_band_bps: z.number().positive().default(500),
    /** Market data older than this blocks new orders. */
    stale_after_ms: z.number().int().positive().default(15_000),
    /** A quote with less time left than this is not executed. */
    min_quote_time_left_ms: z.number().int().min(0).default(2_000),
    /** Fee assumed when checking that a buy fits the balance, in bps. */
    fee_bps: z.number().min(0).default(10),
    /** Kill switch: loss since the start of the UTC day, in the quote currency (empty = off). */
    daily_loss_limit: decimalString.optional(),
    /** Kill switch: drawdown from the equity peak, percent (empty = off). */
    max_drawdown_pct: z.number().positive().max(100).optional(),
    /**
     * Strategies trading one market: `per_strategy` (default) gives each its own position, kept from
     * its own fills, and denies a sell of more than it (OWN_POSITION); `shared` lets them sell one
     * position together, held to the account's balance alone.
     */
    positions: z
      .enum(['per_strategy', 'shared'], {
        error: 'must be per_strategy (each strategy sells only its own position) or shared (the strategies of a market share one position)',
      })
      .default('per_strategy'),
  })
  .strict();

export type RiskLimits = z.infer<typeof RiskLimitsSchema>;

export const DEFAULT_RISK_LIMITS: RiskLimits = RiskLimitsSchema.parse({});
