import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type FaultPlan } from './faults.js';
import { type ProblemBody } from './problem.js';

/** Sends a problem+json body, with extra headers (Retry-After). */
export function sendProblem(res: ServerResponse, body: ProblemBody, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(body.status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Carries out a fault that strikes before the operation runs. Returns true when the request has
 * been dealt with (an error was sent or the connection dropped).
 */
export function applyFaultBefore(action: FaultPlan['action'], req: IncomingMessage, res: ServerResponse, retryAfterSec: number): boolean {
  switch (action) {
    case 'error5xx':
      sendProblem(res, {
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        detail: 'injected fault: the sandbox answered 503 without running the operation',
      });
      return true;
    case 'error429':
      sendProblem(
        res,
        {
          type: 'about:blank',
          title: 'Too Many Requests',
          status: 429,
          detail: `injected fault: rate limited, retry after ${retryAfterSec} s`,
        },
        { 'retry-after': String(retryAfterSec) },
      );
      return true;
    case 'drop':
      req.socket.destroy();
      return true;
    default:
      return false;
  }
}

/** A body that is valid JSON but matches no response schema of the platform. */
const WRONG_SHAPE = Buffer.from(
  JSON.stringify({
    id: 7,
    items: 'none',
    prices: 7,
    tickers: 7,
    bids: 'none',
    asks: 'none',
    status: 7,
    events: 7,
    addresses: 7,
    address: 7,
  }),
);

/**
 * Sends a successful JSON answer, or — for faults that strike after the operation ran — drops the
 * connection without an answer (`commit-drop`), answers 503 (`commit-5xx`), sends the headers and
 * half the body then resets (`truncate`), sends a complete response whose body is the first half of
 * the JSON (`malformed`), or a complete response of valid JSON in the wrong shape (`wrong-shape`).
 */
export function sendResult(res: ServerResponse, body: unknown, action: FaultPlan['action']): void {
  if (action === 'commit-drop') {
    res.socket?.destroy();
    return;
  }
  if (action === 'commit-5xx') {
    sendProblem(res, {
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'injected fault: the operation ran, then the sandbox answered 503',
    });
    return;
  }
  const full = Buffer.from(JSON.stringify(body));
  const text = action === 'malformed' ? full.subarray(0, Math.floor(full.length / 2)) : action === 'wrong-shape' ? WRONG_SHAPE : full;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length });
  if (action === 'truncate') {
    res.write(text.subarray(0, Math.floor(text.length / 2)), () => res.socket?.destroy());
    return;
  }
  res.end(text);
}
