import { type Route, type RouteContext } from '../router.js';
import { wireTaxFormLink } from '../wire-platform.js';

function revisions(ctx: RouteContext): unknown {
  const q = ctx.query;
  const links = ctx.sim.platform.taxForms.revisions(
    q.required('account_id', '<account id>'),
    q.required('tax_year', '2024'),
    ctx.owner,
    q.array('form_types'),
    q.string('revision'),
    ctx.sim.now(),
  );
  return { tax_form_urls: links.map((l) => wireTaxFormLink(ctx.baseUrl, l)) };
}

function latest(ctx: RouteContext): unknown {
  const q = ctx.query;
  const links = ctx.sim.platform.taxForms.latestForms(
    q.array('account_ids', 50),
    q.required('tax_year', '2024'),
    ctx.owner,
    q.array('form_types'),
    ctx.sim.now(),
  );
  return { tax_form_urls: links.map((l) => wireTaxFormLink(ctx.baseUrl, l)) };
}

/** Tax forms: all revisions, the latest ones, and the signed download links (valid 60 s). */
export const TAX_FORM_ROUTES: readonly Route[] = [
  { operation: 'ListTaxFormRevisions', method: 'GET', path: '/v2/tax/tax-form-revisions', scope: 'tax:read_tax_form', handler: revisions },
  { operation: 'ListTaxForms', method: 'GET', path: '/v2/tax/tax-forms', scope: 'tax:read_tax_form', handler: latest },
  {
    // The address a tax form url points to: signed, no token needed, 403 once expired.
    operation: 'SandboxTaxFormFile',
    method: 'GET',
    path: '/v2/tax/tax-form-files/:token',
    scope: null,
    handler: (ctx) => {
      const f = ctx.sim.platform.taxForms.open(ctx.params.token ?? '', ctx.sim.now());
      return {
        account_id: f.accountId,
        type: f.type,
        tax_year: f.taxYear,
        revision: String(f.revision),
        url_expires_at: new Date(f.expiresAt).toISOString(),
        form: `${f.type} ${f.taxYear} revision ${f.revision} (sandbox rendering)`,
      };
    },
  },
];
