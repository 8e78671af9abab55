import type { CreatedAtQuery, CursorQuery, DecimalString, IdentityStatus, Metadata, Open, OrderingQuery, Timestamp, UpdatedAtQuery } from './common.js';

/**
 * Wire types of identities, institution members, documents, accounts, settlements and tax forms.
 * The identity records are large and vary by person/institution; the fields a program commonly
 * reads are typed and the rest stay open (`[key: string]: unknown`).
 */

export type IdentityType = Open<'PERSON' | 'INSTITUTION'>;

export interface Identity {
  readonly id: string;
  readonly type?: IdentityType;
  readonly ref_id?: string;
  readonly summary_status?: IdentityStatus;
  readonly metadata?: Metadata;
  readonly user_disabled?: boolean;
  readonly admin_disabled?: boolean;
  readonly person_details?: Readonly<Record<string, unknown>>;
  readonly institution_details?: Readonly<Record<string, unknown>>;
  readonly institution_members?: readonly InstitutionMember[];
  readonly created_at?: Timestamp;
  readonly updated_at?: Timestamp;
  readonly [key: string]: unknown;
}

export interface CreateIdentityRequest {
  readonly ref_id?: string;
  readonly person_details?: Readonly<Record<string, unknown>>;
  readonly institution_details?: Readonly<Record<string, unknown>>;
  readonly institution_members?: readonly InstitutionMemberInput[];
  readonly metadata?: Metadata;
  readonly tax_details?: readonly Readonly<Record<string, unknown>>[];
  readonly tax_details_not_required?: boolean;
  readonly customer_due_diligence?: Readonly<Record<string, unknown>>;
  readonly is_merchant?: boolean;
}

export interface UpdateIdentityRequest extends Omit<CreateIdentityRequest, 'institution_members' | 'tax_details_not_required'> {
  readonly set_user_disabled?: boolean;
  readonly set_tax_details_not_required?: boolean;
  readonly last_kyc_refresh_date?: Timestamp;
}

export interface ListIdentitiesQuery extends CursorQuery, OrderingQuery, CreatedAtQuery, UpdatedAtQuery {
  readonly summary_status?: IdentityStatus;
  readonly identity_type?: IdentityType;
}

export interface GetIdentityQuery {
  readonly include_details?: boolean;
  readonly include_institution_members?: boolean;
}

export interface InstitutionMemberInput {
  readonly identity_id: string;
  readonly roles: readonly string[];
  /** Percentage as a decimal string. */
  readonly ownership?: DecimalString;
  readonly position?: string;
}

export interface InstitutionMember extends InstitutionMemberInput {
  readonly id?: string;
  readonly name?: string;
  readonly summary_status?: IdentityStatus;
}

export interface AddInstitutionMembersRequest {
  readonly institution_id: string;
  readonly members: readonly InstitutionMemberInput[];
}

export interface DocumentUploadRequest {
  readonly name: string;
  readonly document_types?: readonly string[];
}

export interface IdentityDocument {
  readonly file_id?: string;
  readonly name?: string;
  readonly document_types?: readonly string[];
  readonly created_at?: Timestamp;
  readonly archived_at?: Timestamp;
}

export interface IdentityDocuments {
  readonly documents?: readonly IdentityDocument[];
  readonly pending_documents?: readonly IdentityDocument[];
  readonly [key: string]: unknown;
}

export interface AccountMember {
  readonly id?: string;
  readonly identity_id: string;
  readonly type?: string;
  readonly roles?: readonly string[];
}

export interface Account {
  readonly id: string;
  readonly identity_id?: string;
  readonly description?: string;
  readonly ref_id?: string;
  readonly type?: Open<'BROKERAGE' | 'TRADITIONAL_IRA' | 'ROTH_IRA' | 'SEP_IRA' | 'FINANCIAL_ADVISOR'>;
  readonly metadata?: Metadata;
  readonly members?: readonly AccountMember[];
  readonly admin_disabled?: boolean;
  readonly user_disabled?: boolean;
  readonly summary_status?: IdentityStatus;
  readonly profile_id?: string;
  readonly created_at?: Timestamp;
  readonly updated_at?: Timestamp;
}

export interface CreateAccountRequest {
  readonly account: {
    readonly identity_id: string;
    readonly description?: string;
    readonly metadata?: Metadata;
    /** Idempotency key; the client fills one when absent. */
    readonly ref_id?: string;
    readonly members?: readonly AccountMember[];
    /** Default BROKERAGE; fixed once the account exists. */
    readonly type?: Account['type'];
  };
  readonly create_profile?: boolean;
}

export interface UpdateAccountRequest {
  readonly account: {
    readonly id: string;
    readonly description?: string;
    readonly ref_id?: string;
    readonly metadata?: Metadata;
    readonly members?: readonly AccountMember[];
    /** May repeat the account's type; it cannot change. */
    readonly type?: Account['type'];
  };
  readonly set_user_disabled?: boolean;
}

export interface AddAccountMembersRequest {
  readonly account_id: string;
  readonly members: readonly AccountMember[];
}

export interface ListAccountsQuery extends CursorQuery, OrderingQuery, CreatedAtQuery, UpdatedAtQuery {
  readonly identity_id?: string;
}

/** One obligation, relative to the source profile: DELIVER (source → target) or RECEIVE (target → source). */
export interface SettlementLeg {
  readonly id?: string;
  readonly direction?: Open<'DELIVER' | 'RECEIVE'>;
  readonly asset?: string;
  readonly amount?: DecimalString;
  readonly [key: string]: unknown;
}

export interface SettlementTransaction {
  readonly id: string;
  readonly ref_id?: string;
  readonly status?: Open<'PENDING' | 'AFFIRMED' | 'SETTLED' | 'CANCELLED' | 'EXPIRED'>;
  readonly source_profile_id?: string;
  readonly target_profile_id?: string;
  readonly settlement_window_start?: Timestamp;
  readonly settlement_window_end?: Timestamp;
  readonly legs?: readonly SettlementLeg[];
  readonly created_at?: Timestamp;
  readonly updated_at?: Timestamp;
  readonly [key: string]: unknown;
}

export interface CreateSettlementTransactionRequest {
  readonly ref_id?: string;
  readonly settlement_window_start?: Timestamp;
  readonly settlement_window_end?: Timestamp;
  readonly source_profile_id?: string;
  readonly target_profile_id?: string;
  readonly legs?: readonly SettlementLeg[];
}

export interface ListTransactionsQuery extends CursorQuery {
  readonly statuses?: readonly string[];
  readonly source_profile_id?: string;
  readonly target_profile_id?: string;
}

export interface ListTaxFormRevisionsQuery {
  readonly account_id: string;
  readonly tax_year: string;
  readonly form_types?: readonly string[];
  readonly revision?: string;
}

export interface ListTaxFormsQuery {
  /** At most 50. */
  readonly account_ids: readonly string[];
  readonly tax_year: string;
  readonly form_types?: readonly string[];
}

export type TaxForms = Readonly<Record<string, unknown>>;
