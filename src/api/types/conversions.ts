import type { CursorQuery, DecimalString, Metadata, OrderingQuery, Timestamp } from './common.js';

/** Wire types of stablecoin conversions (1:1 between USD and the platform's USD stablecoins). */

export interface StablecoinConversion {
  readonly id: string;
  readonly profile_id?: string;
  readonly amount?: DecimalString;
  readonly source_asset?: string;
  readonly target_asset?: string;
  readonly ref_id?: string;
  readonly identity_id?: string;
  readonly account_id?: string;
  readonly recipient_profile_id?: string;
  readonly metadata?: Metadata;
  readonly status?: string;
  readonly created_at?: Timestamp;
  readonly updated_at?: Timestamp;
  readonly settled_at?: Timestamp;
  readonly cancelled_at?: Timestamp;
}

export interface CreateStablecoinConversionRequest {
  readonly profile_id: string;
  readonly amount: DecimalString;
  readonly source_asset: string;
  readonly target_asset: string;
  readonly ref_id?: string;
  readonly identity_id?: string;
  readonly account_id?: string;
  readonly metadata?: Metadata;
  readonly recipient_profile_id?: string;
}

export interface ListStablecoinConversionsQuery extends CursorQuery {
  readonly profile_id?: string;
  readonly ref_id?: string;
  readonly 'created_at.begin'?: Timestamp;
  readonly 'created_at.end'?: Timestamp;
  readonly 'updated_at.begin'?: Timestamp;
  readonly 'updated_at.end'?: Timestamp;
  readonly order?: OrderingQuery['order'];
}
