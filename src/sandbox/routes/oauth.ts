import { type IncomingMessage } from 'node:http';
import { type TokenIssuer } from '../auth.js';
import { readForm } from '../http-io.js';
import { badRequest, problem } from '../problem.js';

/**
 * `POST /oauth2/token`: the client-credentials grant. The client authenticates with HTTP Basic
 * (RFC 6749 §2.3.1, which standard OAuth2 libraries try first) or with `client_id` and
 * `client_secret` form fields (the platform's documented way), not both. Answers the RFC 6749 token
 * response; refusals are problems (400 for a bad grant or two methods, 401 for bad credentials).
 */
export async function tokenEndpoint(req: IncomingMessage, issuer: TokenIssuer): Promise<Record<string, unknown>> {
  const form = await readForm(req);
  const grant = form.get('grant_type');
  if (grant !== 'client_credentials')
    throw badRequest(
      'grant_type',
      `${grant === undefined ? 'required' : JSON.stringify(grant) + ' is not supported'}: use client_credentials`,
    );
  const basic = basicCredentials(req.headers.authorization);
  if (basic !== undefined) {
    if (form.get('client_secret') !== undefined)
      throw badRequest(
        'client_secret',
        'the client authenticated twice (HTTP Basic and form fields): use one method per request (RFC 6749 §2.3)',
      );
    const formId = form.get('client_id');
    if (formId !== undefined && formId !== basic.clientId)
      throw badRequest('client_id', 'differs from the client id of the Authorization header: send one client id');
  }
  const clientId = basic?.clientId ?? form.get('client_id');
  const clientSecret = basic?.clientSecret ?? form.get('client_secret');
  if (!clientId || !clientSecret)
    throw problem(401, 'client credentials are required: send client_id and client_secret form fields, or an Authorization: Basic header');
  const grantResult = issuer.issue(clientId, clientSecret, form.get('scope'));
  return { access_token: grantResult.accessToken, expires_in: grantResult.expiresInSec, scope: grantResult.scope, token_type: 'bearer' };
}

/**
 * The credential of an `Authorization: Basic` header: base64 of `id:secret`, each part
 * form-urlencoded first (RFC 6749 §2.3.1). Undefined without such a header; 401 when it is garbled.
 */
export function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const m = /^basic\s+(\S+)\s*$/i.exec(header ?? '');
  if (m === null) return undefined;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) throw problem(401, 'the Authorization: Basic header must carry base64 of client_id:client_secret');
  const decode = (part: string): string => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw problem(401, 'the Authorization: Basic header holds a badly escaped client id or secret');
    }
  };
  return { clientId: decode(text.slice(0, colon)), clientSecret: decode(text.slice(colon + 1)) };
}
