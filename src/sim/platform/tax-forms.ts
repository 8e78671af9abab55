import { createHmac, timingSafeEqual } from 'node:crypto';
import { InputError } from '../../core/errors.js';
import { type SimAccountStore } from './accounts.js';
import { SimError } from '../errors.js';

export const TAX_FORM_TYPES = ['FORM_1099_B', 'FORM_1099_MISC'] as const;
export type TaxFormType = (typeof TAX_FORM_TYPES)[number];
/** A tax form link lives this long. */
export const TAX_URL_LIFETIME_MS = 60_000;
/** How many prior tax years the sandbox keeps forms for. */
const YEARS_BACK = 3;

/** One revision of one form of one account and year, with a link that expires. */
export interface TaxFormLink {
  readonly accountId: string;
  readonly type: TaxFormType;
  readonly taxYear: string;
  readonly revision: number;
  /** Path and query of the download, relative to the server root (the sandbox adds its address). */
  readonly path: string;
  readonly expiresAt: number;
}

interface LinkClaims {
  readonly a: string;
  readonly t: TaxFormType;
  readonly y: string;
  readonly r: number;
  readonly e: number;
}

/**
 * Tax forms per account and tax year. Forms of a tax year become available on 1 February of the next
 * year; the sandbox has revision 1 of both form types for every account for the last three such
 * years, and `issueCorrection` adds revisions (the highest is the latest). Links are signed, carry
 * their expiry (60 s) and need no stored state: they survive a restart and expire on the sim clock.
 */
export class TaxForms {
  private readonly corrections = new Map<string, number>();
  private readonly key: string;

  constructor(
    private readonly accounts: SimAccountStore,
    seed: number,
  ) {
    this.key = `tradeloop-sandbox-tax:${seed}`;
  }

  /** Every revision of the account's forms for a year (ListTaxFormRevisions). */
  revisions(
    accountId: string,
    taxYear: unknown,
    owner: string,
    types: readonly string[],
    revision: string | undefined,
    nowMs: number,
  ): TaxFormLink[] {
    this.accounts.get(accountId, owner);
    const year = checkYear(taxYear);
    const wanted = checkTypes(types);
    const rev = revision === undefined ? undefined : Number(revision);
    if (rev !== undefined && (!Number.isInteger(rev) || rev < 1)) throw new InputError('revision', 'expected a revision number from 1');
    if (!this.available(year, nowMs)) return [];
    return wanted.flatMap((type) => {
      const latest = this.latest(accountId, type, year);
      const all = Array.from({ length: latest }, (_, i) => i + 1);
      return all.filter((r) => rev === undefined || r === rev).map((r) => this.link(accountId, type, year, r, nowMs));
    });
  }

  /** The latest revision of each form of each account (ListTaxForms). */
  latestForms(accountIds: readonly string[], taxYear: unknown, owner: string, types: readonly string[], nowMs: number): TaxFormLink[] {
    if (accountIds.length === 0) throw new InputError('account_ids', 'required: one to 50 account ids (repeat the parameter)');
    if (accountIds.length > 50) throw new InputError('account_ids', `at most 50 account ids, got ${accountIds.length}`);
    for (const id of accountIds) this.accounts.get(id, owner);
    const year = checkYear(taxYear);
    const wanted = checkTypes(types);
    if (!this.available(year, nowMs)) return [];
    return accountIds.flatMap((a) => wanted.map((type) => this.link(a, type, year, this.latest(a, type, year), nowMs)));
  }

  /** Adds a corrected revision (sandbox tooling and tests); returns its number. */
  issueCorrection(accountId: string, type: TaxFormType, taxYear: string, owner: string): number {
    this.accounts.get(accountId, owner);
    const key = `${accountId}|${type}|${checkYear(taxYear)}`;
    this.corrections.set(key, (this.corrections.get(key) ?? 0) + 1);
    return this.latest(accountId, type, taxYear);
  }

  /** Opens a link: the form's record while valid, 403 once expired, 404 for a forged one. */
  open(token: string, nowMs: number): { accountId: string; type: TaxFormType; taxYear: string; revision: number; expiresAt: number } {
    const [body, sig] = token.split('.');
    const expected = body === undefined ? '' : this.sign(body);
    if (
      body === undefined ||
      sig === undefined ||
      sig.length !== expected.length ||
      !timingSafeEqual(Buffer.from(sig), Buffer.from(expected))
    ) {
      throw new SimError('not-found', 'no tax form at this link');
    }
    const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LinkClaims;
    if (c.e <= nowMs)
      throw new SimError(
        'forbidden',
        `this tax form link expired at ${new Date(c.e).toISOString()}: list the forms again for a fresh link (links live 60 s)`,
        { expired_at: new Date(c.e).toISOString() },
      );
    return { accountId: c.a, type: c.t, taxYear: c.y, revision: c.r, expiresAt: c.e };
  }

  saved(): Array<[string, number]> {
    return [...this.corrections];
  }

  restore(items: ReadonlyArray<readonly [string, number]> | undefined): void {
    for (const [k, v] of items ?? []) this.corrections.set(k, v);
  }

  private latest(accountId: string, type: TaxFormType, year: string): number {
    return 1 + (this.corrections.get(`${accountId}|${type}|${year}`) ?? 0);
  }

  private available(year: string, nowMs: number): boolean {
    const y = Number(year);
    const current = new Date(nowMs).getUTCFullYear();
    return Date.UTC(y + 1, 1, 1) <= nowMs && y >= current - YEARS_BACK;
  }

  private link(accountId: string, type: TaxFormType, taxYear: string, revision: number, nowMs: number): TaxFormLink {
    const claims: LinkClaims = { a: accountId, t: type, y: taxYear, r: revision, e: nowMs + TAX_URL_LIFETIME_MS };
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { accountId, type, taxYear, revision, path: `/v2/tax/tax-form-files/${body}.${this.sign(body)}`, expiresAt: claims.e };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

function checkYear(value: unknown): string {
  if (typeof value !== 'string' || !/^\d{4}$/.test(value))
    throw new InputError(
      'tax_year',
      `required: a four-digit year such as "2024"${value === undefined ? '' : `, got ${JSON.stringify(value)}`}`,
    );
  return value;
}

function checkTypes(types: readonly string[]): TaxFormType[] {
  for (const t of types)
    if (!(TAX_FORM_TYPES as readonly string[]).includes(t))
      throw new InputError('form_types', `${JSON.stringify(t)} is not valid: use ${TAX_FORM_TYPES.join(', ')}`);
  return types.length === 0 ? [...TAX_FORM_TYPES] : (types as TaxFormType[]);
}
