import { InputError } from '../../core/errors.js';
import { SimError } from '../errors.js';
import {
  type JsonObject,
  arrayValue,
  enumValue,
  objectValue,
  onlyFields,
  optionalEnum,
  optionalText,
  optionalTime,
  postalAddress,
  requiredText,
} from './input.js';

/**
 * The platform's rules for identity bodies (platform spec, Identities): which verifier types a
 * person may be created with and what each requires, institution types and sub-types and which
 * combinations are allowed, prohibited activities, required fields per kind of institution, member
 * roles per type, ownership bounds and tax details. Pure functions: the store adds lookups.
 */

export const IDENTITY_STATUSES = ['PENDING', 'ERROR', 'APPROVED', 'DENIED', 'DISABLED'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];
export const VERIFIER_TYPES = ['JUMIO', 'PAXOS', 'PASSTHROUGH', 'MANUAL'] as const;
export const PASSTHROUGH_VERIFIERS = [
  'JUMIO',
  'ALLOY',
  'LEXISNEXIS',
  'MITEK',
  'SUMSUB',
  'MICROBILT',
  'ONFIDO',
  'CUSTOMER',
  'EQUIFAX',
  'ID3_AUTHENTICATE',
  'FIS',
  'PROVE',
  'PERSONA',
  'PLAID',
  'DOTFILE',
] as const;
const PASSTHROUGH_FIELDS = ['FULL_LEGAL_NAME', 'ADDRESS', 'DATE_OF_BIRTH', 'CIP_ID'] as const;
const PERSON_CIP_TYPES = ['SSN', 'ID_CARD', 'ITIN', 'PASSPORT', 'DRIVING_LICENSE', 'VISA'] as const;
export const INSTITUTION_TYPES = ['TRUST', 'CORPORATION', 'LLC', 'PARTNERSHIP'] as const;
export type InstitutionType = (typeof INSTITUTION_TYPES)[number];
const INSTITUTION_CIP_TYPES = ['EIN', 'REGISTRATION_NUMBER', 'SSN', 'ITIN'] as const;
export const INSTITUTION_SUB_TYPES = [
  'ACCOMMODATION_FOOD_SERVICES',
  'ADMINISTRATIVE_SUPPORT_WASTE_MANAGEMENT_REMEDIATION_SERVICES',
  'ADULT_ENTERTAINMENT',
  'AGRICULTURE_FORESTRY_FISHING_HUNTING',
  'ARTS_ENTERTAINMENT_RECREATION',
  'AUCTIONS',
  'AUTOMOBILES',
  'BLOCKCHAIN',
  'CONSTRUCTION',
  'CRYPTO',
  'DRUGS',
  'E_COMMERCE',
  'EDUCATIONAL_SERVICES',
  'EXPORT_IMPORT',
  'FINANCE_INSURANCE',
  'FINANCIAL_INSTITUTION',
  'GAMBLING',
  'HEALTH_CARE_SOCIAL_ASSISTANCE',
  'HEDGE_FUND',
  'INFORMATION',
  'INSURANCE',
  'INVESTMENT',
  'MANAGEMENT_OF_COMPANIES_ENTERPRISES',
  'MANUFACTURING',
  'MARKET_MAKER',
  'MINING',
  'MONEY_SERVICE_BUSINESS',
  'NON_PROFIT',
  'NOT_CLASSIFIED',
  'OTHER_SERVICES',
  'PRECIOUS_METALS',
  'PROFESSIONAL_SCIENTIFIC_TECHNICAL_SERVICES',
  'PUBLIC_ADMINISTRATION',
  'RANSOMWARE',
  'REAL_ESTATE_RENTAL_LEASING',
  'REGISTERED_INVESTMENT_ADVISOR',
  'RETAIL_TRADE',
  'SHELL_BANK',
  'STO_ISSUER',
  'TRANSPORTATION_WAREHOUSING',
  'TRAVEL_TRANSPORT',
  'UTILITIES',
  'WEAPONS',
  'WHOLESALE_TRADE',
] as const;
/** Business activities barred on the platform. */
export const PROHIBITED_SUB_TYPES: readonly string[] = ['ADULT_ENTERTAINMENT', 'DRUGS', 'RANSOMWARE', 'SHELL_BANK', 'WEAPONS'];
export const MEMBER_ROLES: Readonly<Record<InstitutionType, readonly string[]>> = {
  TRUST: ['BENEFICIAL_OWNER', 'BENEFICIARY', 'GRANTOR', 'TRUSTEE'],
  CORPORATION: ['ACCOUNT_OPENER', 'AUTHORIZED_USER', 'BENEFICIAL_OWNER', 'MANAGEMENT_CONTROL_PERSON'],
  LLC: ['ACCOUNT_OPENER', 'AUTHORIZED_USER', 'BENEFICIAL_OWNER', 'MANAGEMENT_CONTROL_PERSON'],
  PARTNERSHIP: ['ACCOUNT_OPENER', 'AUTHORIZED_USER', 'BENEFICIAL_OWNER', 'MANAGEMENT_CONTROL_PERSON'],
};
const TIN_STATUSES = ['TIN_VERIFICATION_PENDING', 'TIN_VERIFICATION_ERROR', 'TIN_VERIFICATION_VALID'] as const;

const PERSON_TEXT = [
  'first_name',
  'last_name',
  'middle_name',
  'date_of_birth',
  'cip_id',
  'cip_id_country',
  'nationality',
  'profession',
  'country_of_birth',
  'verifier_id',
  'passthrough_verification_id',
  'govt_id',
  'phone_number',
  'email',
];
const PERSON_FIELDS = [
  ...PERSON_TEXT,
  'cip_id_type',
  'govt_id_type',
  'address',
  'verifier_type',
  'passthrough_verifier_type',
  'passthrough_verified_at',
  'passthrough_verification_status',
  'passthrough_verification_fields',
];
const INSTITUTION_TEXT = [
  'name',
  'cip_id',
  'cip_id_country',
  'phone_number',
  'email',
  'listed_exchange',
  'ticker_symbol',
  'parent_institution_name',
  'regulator_jurisdiction',
  'regulator_name',
  'regulator_register_number',
  'doing_business_as',
  'business_description',
];
const INSTITUTION_FIELDS = [
  ...INSTITUTION_TEXT,
  'institution_type',
  'institution_sub_type',
  'cip_id_type',
  'business_address',
  'incorporation_address',
  'govt_registration_date',
  'regulation_status',
  'trading_type',
];
/** Verification results the record carries: a request may echo them; they are ignored (SandboxSetIdentityStatus sets them). */
const PERSON_READ_ONLY = ['id_verification_status', 'sanctions_verification_status', 'additional_screening_status', 'id_verification_url'];
const INSTITUTION_READ_ONLY = ['sanctions_verification_status', 'document_verification_status', 'additional_screening_status'];
const TRUST_REQUIRED = [
  'name',
  'cip_id',
  'cip_id_type',
  'cip_id_country',
  'institution_type',
  'institution_sub_type',
  'business_address',
  'govt_registration_date',
];
const RIA_REQUIRED = ['name', 'cip_id', 'cip_id_type', 'cip_id_country', 'institution_type', 'institution_sub_type', 'business_address'];
const OTHER_REQUIRED = [...TRUST_REQUIRED, 'incorporation_address', 'regulation_status', 'trading_type'];

/** A tax detail entry as stored. */
export interface TaxDetail {
  readonly tax_payer_id: string;
  readonly tax_payer_country: string;
  readonly tin_verification_status: string;
}

export function isUsCountry(country: unknown): boolean {
  return country === 'USA' || country === 'US';
}

/** Checks person details; `creating` applies the creation-only verifier rules. */
export function personDetails(value: unknown, creating: boolean): JsonObject {
  const p = objectValue(value, 'person_details', 'the person: verifier_type, address, names, cip_id …');
  onlyFields(p, [...PERSON_FIELDS, ...PERSON_READ_ONLY], 'person_details.');
  const out: JsonObject = {};
  for (const k of PERSON_TEXT) {
    const v = optionalText(p[k], `person_details.${k}`, 200);
    if (v !== undefined) out[k] = v;
  }
  if (out.date_of_birth !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(out.date_of_birth as string))
    throw new InputError('person_details.date_of_birth', 'expected YYYY-MM-DD');
  for (const k of ['cip_id_type', 'govt_id_type'] as const) {
    const v = optionalEnum(p[k], `person_details.${k}`, PERSON_CIP_TYPES);
    if (v !== undefined) out[k] = v;
  }
  if (p.address !== undefined && p.address !== null) out.address = postalAddress(p.address, 'person_details.address');
  const verifier = creating
    ? enumValue(p.verifier_type, 'person_details.verifier_type', VERIFIER_TYPES)
    : optionalEnum(p.verifier_type, 'person_details.verifier_type', VERIFIER_TYPES);
  if (verifier !== undefined) out.verifier_type = verifier;
  if (creating) checkVerifier(p, out);
  return out;
}

function checkVerifier(p: JsonObject, out: JsonObject): void {
  const verifier = out.verifier_type;
  if (verifier === 'PAXOS' || verifier === 'MANUAL') {
    throw new InputError(
      'person_details.verifier_type',
      `${String(verifier)} is not accepted on identity creation: use JUMIO (the identity provider) or PASSTHROUGH`,
    );
  }
  if (out.address === undefined) throw new InputError('person_details.address', `required with verifier_type ${String(verifier)}`);
  if (verifier === 'JUMIO') {
    requiredText(p.verifier_id, 'person_details.verifier_id', '"the provider\'s verification id"', 200);
    return;
  }
  if (out.verifier_id !== undefined)
    throw new InputError('person_details.verifier_id', 'not allowed with verifier_type PASSTHROUGH: remove it');
  out.passthrough_verifier_type = enumValue(p.passthrough_verifier_type, 'person_details.passthrough_verifier_type', PASSTHROUGH_VERIFIERS);
  const at = optionalTime(p.passthrough_verified_at, 'person_details.passthrough_verified_at');
  if (at === undefined)
    throw new InputError(
      'person_details.passthrough_verified_at',
      'required with PASSTHROUGH: when your verifier verified the person (RFC 3339)',
    );
  out.passthrough_verified_at = new Date(at).toISOString();
  const status = optionalEnum(p.passthrough_verification_status, 'person_details.passthrough_verification_status', IDENTITY_STATUSES);
  if (status !== undefined) out.passthrough_verification_status = status;
  const fields = arrayValue(p.passthrough_verification_fields, 'person_details.passthrough_verification_fields', 4);
  if (fields.length > 0)
    out.passthrough_verification_fields = fields.map((f, i) =>
      enumValue(f, `person_details.passthrough_verification_fields[${i}]`, PASSTHROUGH_FIELDS),
    );
}

/** Checks institution details: type/sub-type pairing, prohibited activities, required fields per kind. */
export function institutionDetails(value: unknown, creating: boolean): JsonObject {
  const d = objectValue(value, 'institution_details', 'the institution: name, institution_type, institution_sub_type, cip_id …');
  onlyFields(d, [...INSTITUTION_FIELDS, ...INSTITUTION_READ_ONLY], 'institution_details.');
  const out: JsonObject = {};
  for (const k of INSTITUTION_TEXT) {
    const v = optionalText(d[k], `institution_details.${k}`, 200);
    if (v !== undefined) out[k] = v;
  }
  const enums: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['institution_type', INSTITUTION_TYPES],
    ['institution_sub_type', INSTITUTION_SUB_TYPES],
    ['cip_id_type', INSTITUTION_CIP_TYPES],
    ['regulation_status', ['US_REGULATED', 'INTL_REGULATED', 'NON_REGULATED']],
    ['trading_type', ['PRIVATE', 'PUBLIC', 'PUBLICLY_TRADED_SUBSIDIARY']],
  ];
  for (const [k, allowed] of enums) {
    const v = optionalEnum(d[k], `institution_details.${k}`, allowed);
    if (v !== undefined) out[k] = v;
  }
  for (const k of ['business_address', 'incorporation_address'])
    if (d[k] !== undefined && d[k] !== null) out[k] = postalAddress(d[k], `institution_details.${k}`);
  const registered = optionalTime(d.govt_registration_date, 'institution_details.govt_registration_date');
  if (registered !== undefined) out.govt_registration_date = new Date(registered).toISOString();
  if (creating) checkInstitutionKind(out);
  return out;
}

/** Type/sub-type pairing, prohibited activities, SSN/ITIN use and required fields (also re-run on updates). */
export function checkInstitutionKind(d: JsonObject): void {
  const type = d.institution_type as InstitutionType | undefined;
  const sub = d.institution_sub_type as string | undefined;
  if (sub !== undefined && PROHIBITED_SUB_TYPES.includes(sub)) {
    throw new SimError('forbidden', `institution_details.institution_sub_type: ${sub} is a business activity barred on the platform`, {
      field: 'institution_details.institution_sub_type',
    });
  }
  if (type === 'TRUST' && sub !== undefined && sub !== 'INVESTMENT')
    throw new InputError('institution_details.institution_sub_type', `a TRUST takes the sub-type INVESTMENT, not ${sub}`);
  if (type !== undefined && type !== 'TRUST' && sub === 'INVESTMENT')
    throw new InputError('institution_details.institution_sub_type', `INVESTMENT is valid only with institution_type TRUST, not ${type}`);
  if (type === 'CORPORATION' && (d.cip_id_type === 'SSN' || d.cip_id_type === 'ITIN')) {
    throw new InputError(
      'institution_details.cip_id_type',
      `${String(d.cip_id_type)} is only for pass-through or revocable entities (LLC, PARTNERSHIP, TRUST): use EIN or REGISTRATION_NUMBER`,
    );
  }
  const required = type === 'TRUST' ? TRUST_REQUIRED : sub === 'REGISTERED_INVESTMENT_ADVISOR' ? RIA_REQUIRED : OTHER_REQUIRED;
  for (const k of required)
    if (d[k] === undefined)
      throw new InputError(
        `institution_details.${k}`,
        `required for ${type === 'TRUST' ? 'a trust' : sub === 'REGISTERED_INVESTMENT_ADVISOR' ? 'a registered investment advisor' : 'this institution'} (required: ${required.join(', ')})`,
      );
  if (type === 'TRUST' && d.cip_id_type !== 'SSN' && d.cip_id_type !== 'ITIN' && d.incorporation_address === undefined) {
    throw new InputError('institution_details.incorporation_address', 'required for a trust unless cip_id_type is SSN or ITIN');
  }
}

/** Checks a tax_details list (each entry: tax_payer_id ≤ 35 characters, tax_payer_country). */
export function taxDetails(value: unknown, field = 'tax_details'): TaxDetail[] {
  return arrayValue(value, field, 20).map((raw, i) => {
    const t = objectValue(raw, `${field}[${i}]`, '{tax_payer_id, tax_payer_country}');
    onlyFields(t, ['tax_payer_id', 'tax_payer_country', 'tin_verification_status'], `${field}[${i}].`);
    return {
      tax_payer_id: requiredText(t.tax_payer_id, `${field}[${i}].tax_payer_id`, '"123456789"', 35),
      tax_payer_country: requiredText(t.tax_payer_country, `${field}[${i}].tax_payer_country`, '"USA"', 3),
      tin_verification_status:
        optionalEnum(t.tin_verification_status, `${field}[${i}].tin_verification_status`, TIN_STATUSES) ?? 'TIN_VERIFICATION_PENDING',
    };
  });
}

/**
 * Tax details on creation: given ones are kept; a US identity with none gets them from cip_id (and
 * an institution with an SSN, ITIN or EIN); otherwise they are mandatory unless a non-US
 * institution says they are not required.
 */
export function taxDetailsOnCreate(
  given: TaxDetail[],
  details: JsonObject,
  kind: 'PERSON' | 'INSTITUTION',
  notRequired: boolean,
): TaxDetail[] {
  const country = details.cip_id_country;
  if (notRequired) {
    if (kind === 'PERSON') throw new InputError('tax_details_not_required', 'allowed for non-US institutions only');
    if (isUsCountry(country))
      throw new InputError(
        'tax_details_not_required',
        'not allowed for a US institution (cip_id_country USA): give tax_details or a cip_id of type EIN, SSN or ITIN',
      );
  }
  if (given.length > 0 || notRequired) return given;
  const autoFill = kind === 'PERSON' ? isUsCountry(country) : ['SSN', 'ITIN', 'EIN'].includes(String(details.cip_id_type));
  if (autoFill && typeof details.cip_id === 'string') {
    return [
      {
        tax_payer_id: details.cip_id.slice(0, 35),
        tax_payer_country: typeof country === 'string' ? country : 'USA',
        tin_verification_status: 'TIN_VERIFICATION_PENDING',
      },
    ];
  }
  const why =
    kind === 'PERSON'
      ? 'mandatory for international persons (a US person with cip_id and cip_id_country USA gets them filled in)'
      : 'mandatory unless cip_id_type is SSN, ITIN or EIN, or tax_details_not_required is set for a non-US institution';
  throw new InputError('tax_details', why);
}

/** An institution member's ownership: a number or decimal string from 0 to 100. */
export function ownership(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d+(\.\d+)?$/.test(text) || Number(text) > 100)
    throw new InputError(field, `expected a percentage from 0 to 100, got ${JSON.stringify(value)}`);
  return text;
}

/** The roles of one member, each allowed for the institution's type. */
export function memberRoles(value: unknown, field: string, type: InstitutionType): string[] {
  const roles = arrayValue(value, field, 10);
  if (roles.length === 0) throw new InputError(field, `required: at least one role (a ${type} takes ${MEMBER_ROLES[type].join(', ')})`);
  return roles.map((r, i) => enumValue(r, `${field}[${i}]`, MEMBER_ROLES[type]));
}
