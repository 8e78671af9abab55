import { type IncomingMessage } from 'node:http';
import { type TokenIssuer } from '../auth.js';
import { readForm } from '../http-io.js';
import { badRequest, problem } from '../problem.js';

/**
 * `POST /oauth2/token`: the client-credentials grant. Answers the RFC 6749 token response;
 * refusals are problems (400 for a bad grant, 401 for bad credentials).
 */
export async function tokenEndpoint(req: IncomingMessage, issuer: TokenIssuer): Promise<Record<string, unknown>> {
  const form = await readForm(req);
  const grant = form.get('grant_type');
  if (grant !== 'client_credentials') throw badRequest('grant_type', `${grant === undefined ? 'required' : JSON.stringify(grant) + ' is not supported'}: use client_credentials`);
  const clientId = form.get('client_id');
  const clientSecret = form.get('client_secret');
  if (!clientId || !clientSecret) throw problem(401, 'client_id and client_secret are required form fields');
  const grantResult = issuer.issue(clientId, clientSecret, form.get('scope'));
  return { access_token: grantResult.accessToken, expires_in: grantResult.expiresInSec, scope: grantResult.scope, token_type: 'bearer' };
}
