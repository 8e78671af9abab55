import { type IncomingMessage, type ServerResponse } from 'node:http';
import { problem } from './problem.js';

const MAX_BODY_BYTES = 1_048_576;

/** Reads the whole request body (at most 1 MiB: 413 beyond). */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw problem(413, `request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(buf);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** Parses a JSON object body; 400 when it is missing, malformed or not an object. */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req);
  if (raw.length === 0) throw problem(400, 'request body: required, a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw problem(400, 'request body: not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw problem(400, 'request body: expected a JSON object');
  return value as Record<string, unknown>;
}

/** Reads form fields from an urlencoded or multipart body (the token endpoint accepts both). */
export async function readForm(req: IncomingMessage): Promise<Map<string, string>> {
  const type = req.headers['content-type'] ?? '';
  const raw = await readBody(req);
  const fields = new Map<string, string>();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) fields.set(k, v);
  } else if (type.startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    } catch {
      throw problem(400, 'request body: malformed multipart/form-data');
    }
    for (const [k, v] of form) if (typeof v === 'string') fields.set(k, v);
  } else {
    throw problem(415, 'the token endpoint takes application/x-www-form-urlencoded or multipart/form-data');
  }
  return fields;
}

/** Writes a JSON response with an explicit length (keep-alive friendly). */
export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
