import { IDENTITY_STATUSES, DOCUMENT_FORMATS, sniffFormat, summaryStatus } from '../../sim/index.js';
import { problem } from '../problem.js';
import { type Route, type RouteContext } from '../router.js';
import { wireDocument, wireIdentity, wireMember } from '../wire-platform.js';
import { listPage, timeBounds } from './list-helpers.js';

const FULL = { details: true, members: true };

function listIdentities(ctx: RouteContext): unknown {
  const q = ctx.query;
  const status = q.oneOf('summary_status', IDENTITY_STATUSES);
  const type = q.oneOf('identity_type', ['PERSON', 'INSTITUTION'] as const);
  const all = ctx.sim.platform.identities
    .list(ctx.owner)
    .filter((i) => (status === undefined || summaryStatus(i) === status) && (type === undefined || i.type === type));
  const page = listPage(q, all, { created: timeBounds(q, 'created_at'), updated: timeBounds(q, 'updated_at') });
  return {
    items: page.items.map((i) => wireIdentity(ctx.sim, i, { details: false, members: false })),
    next_page_cursor: page.next_page_cursor,
  };
}

/** Documents are a closed beta on the platform: 403 unless the sandbox enables them (`sim.platform.documents`). */
function documentsEnabled(ctx: RouteContext): void {
  if (!ctx.sim.platform.settings.documents)
    throw problem(
      403,
      'document storage not enabled: identity documents are a closed beta: start the sandbox with --documents (config local.documents: true; startSandbox: sim.platform.documents)',
    );
}

async function documentUpload(ctx: RouteContext): Promise<unknown> {
  documentsEnabled(ctx);
  const identity = ctx.sim.platform.identities.get(ctx.params.identity_id ?? '', ctx.owner);
  const doc = ctx.sim.platform.documents.request(identity.id, ctx.owner, await ctx.body(), ctx.sim.now());
  return { file_id: doc.fileId, name: doc.name, upload_url: `${ctx.baseUrl}/v2/identity/document-uploads/${doc.fileId}` };
}

/** Step 2 of the upload: the file's bytes (pdf, jpg or png; under the size limit), streamed and counted. */
async function receiveDocument(ctx: RouteContext): Promise<unknown> {
  documentsEnabled(ctx);
  const max = ctx.sim.platform.settings.maxDocumentBytes;
  const declared = Number(ctx.req.headers['content-length'] ?? '0');
  if (declared > max) throw problem(413, `the file is ${declared} bytes: documents must be under ${max} bytes`);
  let size = 0;
  let head = Buffer.alloc(0);
  for await (const chunk of ctx.req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (head.length < 8) head = Buffer.concat([head, buf.subarray(0, 8 - head.length)]);
    if (size > max) throw problem(413, `the file is over ${max} bytes: documents must be under that`);
  }
  if (size === 0) throw problem(400, 'request body: the file bytes are required');
  const format = sniffFormat(head);
  if (format === undefined) throw problem(400, `unsupported file format: send ${DOCUMENT_FORMATS.join(', ')}`);
  const doc = ctx.sim.platform.documents.upload(ctx.params.file_id ?? '', size, format, ctx.sim.now());
  return { file_id: doc.fileId, size_bytes: size, format };
}

function listDocuments(ctx: RouteContext): unknown {
  documentsEnabled(ctx);
  const identity = ctx.sim.platform.identities.get(ctx.params.identity_id ?? '', ctx.owner);
  const { documents, pendingTypes } = ctx.sim.platform.documents.list(identity.id);
  return { documents: documents.map(wireDocument), ...(ctx.query.bool('include_pending_docs') ? { pending_documents: pendingTypes } : {}) };
}

const write = 'identity:write_identity';
const read = 'identity:read_identity';

/** Identities, institution members, verification helpers and identity documents. */
export const IDENTITY_ROUTES: readonly Route[] = [
  { operation: 'ListIdentities', method: 'GET', path: '/v2/identity/identities', scope: read, handler: listIdentities },
  {
    operation: 'CreateIdentity',
    method: 'POST',
    path: '/v2/identity/identities',
    scope: write,
    handler: async (ctx) => wireIdentity(ctx.sim, ctx.sim.platform.identities.create(await ctx.body(), ctx.owner, ctx.sim.now()), FULL),
  },
  {
    operation: 'GetIdentity',
    method: 'GET',
    path: '/v2/identity/identities/:id',
    scope: read,
    handler: (ctx) =>
      wireIdentity(ctx.sim, ctx.sim.platform.identities.get(ctx.params.id ?? '', ctx.owner), {
        details: ctx.query.bool('include_details'),
        members: ctx.query.bool('include_institution_members'),
      }),
  },
  {
    operation: 'UpdateIdentity',
    method: 'PUT',
    path: '/v2/identity/identities/:id',
    scope: write,
    handler: async (ctx) =>
      wireIdentity(ctx.sim, ctx.sim.platform.identities.update(ctx.params.id ?? '', await ctx.body(), ctx.owner, ctx.sim.now()), FULL),
  },
  {
    operation: 'RetryIdVerification',
    method: 'POST',
    path: '/v2/identity/identities/:id/retry-id-verification',
    scope: write,
    handler: (ctx) => {
      const i = ctx.sim.platform.identities.retryIdVerification(ctx.params.id ?? '', ctx.owner, ctx.sim.now());
      return { url: `${ctx.baseUrl}/v2/identity/verifications/${i.id}/${i.verificationAttempts}` };
    },
  },
  {
    operation: 'SetVerifierCredentials',
    method: 'POST',
    path: '/v2/identity/verifier-credentials',
    scope: 'identity:write_verifier_credentials',
    handler: async (ctx) => {
      ctx.sim.platform.identities.setVerifierCredentials(await ctx.body(), ctx.owner);
      return {};
    },
  },
  {
    operation: 'AddInstitutionMembers',
    method: 'POST',
    path: '/v2/identity/institution-members',
    scope: write,
    handler: async (ctx) => {
      const { institution, added } = ctx.sim.platform.identities.addMembers(await ctx.body(), ctx.owner, ctx.sim.now());
      return { institution_id: institution.id, members: added.map((m) => wireMember(ctx.sim, m)) };
    },
  },
  {
    operation: 'DeleteInstitutionMember',
    method: 'DELETE',
    path: '/v2/identity/institution-members/:id',
    scope: write,
    handler: (ctx) => {
      ctx.sim.platform.identities.removeMember(ctx.params.id ?? '', ctx.owner, ctx.sim.now());
      return {};
    },
  },
  {
    operation: 'SandboxSetIdentityStatus',
    method: 'PUT',
    path: '/v2/identity/identities/:id/sandbox-status',
    scope: write,
    handler: async (ctx) => {
      ctx.sim.platform.identities.setStatus(ctx.params.id ?? '', await ctx.body(), ctx.owner, ctx.sim.now());
      return {};
    },
  },
  {
    operation: 'DocumentUpload',
    method: 'PUT',
    path: '/v2/identity/identities/:identity_id/documents',
    scope: write,
    handler: documentUpload,
  },
  {
    operation: 'ListIdentityDocuments',
    method: 'GET',
    path: '/v2/identity/identities/:identity_id/documents',
    scope: read,
    handler: listDocuments,
  },
  // The upload address handed out by DocumentUpload (a pre-authorised link: no token); both methods, as the platform states both.
  {
    operation: 'SandboxDocumentBytes',
    method: 'PUT',
    path: '/v2/identity/document-uploads/:file_id',
    scope: null,
    handler: receiveDocument,
  },
  {
    operation: 'SandboxDocumentBytesPost',
    method: 'POST',
    path: '/v2/identity/document-uploads/:file_id',
    scope: null,
    handler: receiveDocument,
  },
];
