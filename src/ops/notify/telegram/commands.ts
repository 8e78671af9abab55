/**
 * What the chat bot answers: the same reads the control API serves (OpsState) and the same control
 * actions (Control), in short lines that read on a phone. /pause and /resume STRATEGY answer only when
 * the control API has those actions; /daily only when the run serves daily P&L.
 */
import { ACTIONS, type ActionName, type ActionResult, type Control } from '../../control.js';
import type { OpsState } from '../../ops-state.js';

export interface CommandContext {
  readonly state: OpsState;
  readonly control: Pick<Control, 'act'>;
  /** GET /api/daily's reader, when the run has one. */
  readonly daily?: () => unknown;
}

type Obj = Readonly<Record<string, unknown>>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const str = (v: unknown): string =>
  v === undefined || v === null
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : JSON.stringify(v);

export const HELP = [
  '/status: trading, equity and P&L',
  "/positions: each strategy's position",
  '/profit: P&L per strategy',
  '/daily: P&L per day and strategy',
  '/halt [reason]: stop new orders (open orders stay)',
  "/resume: lift an operator's halt",
  "/exit STRATEGY [MARKET]: sell that strategy's own position",
  '/pause STRATEGY, /resume STRATEGY: pause or resume one strategy',
].join('\n');

/** The answer to one message from an allowed chat. */
export async function answer(text: string, c: CommandContext): Promise<string> {
  const [head = '', ...args] = text.trim().split(/\s+/);
  const command = head.toLowerCase().replace(/@\S*$/, '');
  switch (command) {
    case '/start':
    case '/help':
      return HELP;
    case '/status':
      return statusText(c.state);
    case '/positions':
      return positionsText(c.state);
    case '/profit':
      return profitText(c.state);
    case '/daily':
      return dailyText(c.daily);
    case '/halt':
      return acted('halt', await c.control.act('halt', args.length ? { reason: args.join(' ') } : {}));
    case '/resume':
      if (args[0] === undefined) return acted('resume', await c.control.act('resume', {}));
      return strategyAction(c, 'resume', args[0]);
    case '/pause':
      if (args[0] === undefined) return 'pause needs the strategy: /pause STRATEGY';
      return strategyAction(c, 'pause', args[0]);
    case '/exit':
      if (args[0] === undefined) return 'exit needs the strategy: /exit STRATEGY [MARKET]';
      return acted(
        'exit',
        await c.control.act('exit', { strategy: args[0], ...(args[1] !== undefined && { market: args[1].toUpperCase() }) }),
      );
    default:
      return `unknown command ${JSON.stringify(head.slice(0, 40))}:\n${HELP}`;
  }
}

/** Pausing or resuming one strategy goes through the control API's action, when this version has it. */
async function strategyAction(c: CommandContext, action: 'pause' | 'resume', strategy: string): Promise<string> {
  if (!(ACTIONS as readonly string[]).includes('pause'))
    return `${action} of one strategy is not available in this version (/halt and /resume act on all trading)`;
  return acted(action, await c.control.act(action as ActionName, { strategy }));
}

function tradingText(trading: unknown): string {
  const t = obj(trading);
  const causes = list(t.causes);
  if (causes.length === 0) return 'running';
  return `${str(t.state).toUpperCase()}: ${causes.map((x) => str(x.reason)).join('; ')}`;
}

function acted(action: string, r: ActionResult): string {
  const b = r.body;
  if (r.status >= 400) return `${action} refused: ${str(b.error)}`;
  const lines = [`${action}: done${b.strategy !== undefined ? ` for ${str(b.strategy)}` : ''}`];
  for (const e of list(b.exits))
    lines.push(
      `${str(e.market)}: sell ${str(e.amount)}${e.outcome !== undefined ? ` (${str(e.outcome)})` : ''}${e.note !== undefined ? ` ${str(e.note)}` : ''}`,
    );
  if (b.state !== undefined) lines.push(`state: ${str(b.state)}`);
  if (b.trading !== undefined) lines.push(`trading: ${tradingText(b.trading)}`);
  if (b.message !== undefined) lines.push(str(b.message));
  return lines.join('\n');
}

function statusText(state: OpsState): string {
  const s = state.status();
  const asset = str(s.equityAsset ?? 'USD');
  const strategies = state.strategies();
  const counters = obj(s.counters);
  return [
    `trading: ${tradingText(s.trading)}`,
    `equity: ${str(s.equityShown ?? s.equity ?? '?')} ${asset}, P&L ${str(s.pnlShown ?? s.pnl ?? '?')} ${asset}`,
    `strategies: ${strategies.map((x) => `${str(x.name)} ${str(x.state)}`).join(', ') || 'none'}`,
    `fills ${str(counters.fills ?? 0)}, intents ${str(counters.intents ?? 0)}, denied ${str(counters.denied ?? 0)}`,
    `${str(s.environment)} on ${str(s.venue)}`,
  ].join('\n');
}

function positionsText(state: OpsState): string {
  const held = list(state.positions().positions).filter((p) => !/^0(\.0*)?$/.test(str(p.position)));
  if (held.length === 0) return 'no positions';
  return held
    .map(
      (p) =>
        `${str(p.strategy)} ${str(p.market)}: ${str(p.positionShown ?? p.position)}${p.averageCostShown !== undefined ? ` @ ${str(p.averageCostShown)}` : ''}, P&L ${str(p.pnlShown)} ${str(p.quoteAsset)}`,
    )
    .join('\n');
}

function profitText(state: OpsState): string {
  const s = state.status();
  const asset = str(s.equityAsset ?? 'USD');
  const positions = list(state.positions().positions);
  const lines = state.strategies().map((x) => {
    const own = positions.filter((p) => p.strategy === x.name);
    const trips = own.reduce((n, p) => n + Number(p.roundTrips ?? 0), 0);
    const wins = own.reduce((n, p) => n + Number(p.wins ?? 0), 0);
    return `${str(x.name)}: ${str(x.pnlShown)} ${asset} (${trips} round trip(s), ${wins} won)`;
  });
  return [...lines, `total: ${str(s.pnlShown ?? s.pnl ?? '?')} ${asset} (equity ${str(s.equityShown ?? s.equity ?? '?')})`].join('\n');
}

function dailyText(daily: (() => unknown) | undefined): string {
  if (daily === undefined) return 'daily P&L is not available in this version';
  const days = list(obj(daily()).days);
  if (days.length === 0) return 'no trades yet';
  return days
    .map((d) => `${str(d.date)} ${str(d.strategy)}: ${str(d.realized)} (fees ${str(d.fees)}, ${str(d.trades)} trade(s))`)
    .join('\n');
}
