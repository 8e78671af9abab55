/**
 * The control API's actions on a running bot. Each goes through an operation the kernel already
 * has (the gate's halt, cancel-everything, the run's clean stop), so an operator's button does exactly
 * what the kill switch and the exit do, and nothing the engine does not know about.
 */
import type { Logger } from '../log/index.js';
import type { HaltCause } from '../risk/index.js';
import type { OpsState } from './ops-state.js';
import type { OpsRun } from './run-port.js';

/** An action's answer: HTTP status and JSON body. */
export interface ActionResult {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export type ActionName = 'halt' | 'resume' | 'cancel-all' | 'stop' | 'exit' | 'pause';

export const ACTIONS: readonly ActionName[] = ['halt', 'resume', 'cancel-all', 'stop', 'exit', 'pause'];

const MAX_REASON = 200;

export class Control {
  private stopping = false;

  constructor(
    private readonly run: OpsRun,
    private readonly state: OpsState,
    private readonly log?: Logger,
  ) {}

  async act(action: ActionName, body: Record<string, unknown>): Promise<ActionResult> {
    switch (action) {
      case 'halt':
        return this.halt(body.reason);
      case 'resume':
        return body.strategy === undefined ? this.resume(body.kill_switch) : this.resumeStrategy(body.strategy, body.kill_switch);
      case 'pause':
        return this.pause(body.strategy, body.reason);
      case 'cancel-all':
        return this.cancelAll();
      case 'stop':
        return this.stop();
      case 'exit':
        return this.exit(body.strategy, body.market);
    }
  }

  /**
   * An operator's forced exit of one strategy: a MARKET sell of its own position (in `market`, else in
   * each market it trades), marked `operator`, through the gate like any reducing order (so it still
   * goes while trading is halted). The answer gives each sell's decision.
   */
  private exit(strategy: unknown, market: unknown): ActionResult {
    if (typeof strategy !== 'string' || strategy === '')
      return refuse(400, 'strategy must name a running strategy, e.g. {"strategy": "sma-btc"}');
    if (market !== undefined && typeof market !== 'string')
      return refuse(400, 'market must be a market symbol such as "BTCUSD", or left out (every market of the strategy)');
    const unknown = this.unknownStrategy(strategy);
    if (unknown !== undefined) return unknown;
    const runner = this.run.strategies.find((s) => s.name === strategy)!;
    if (market !== undefined && !runner.markets.has(market))
      return refuse(400, `${strategy} does not trade ${market}: it trades ${[...runner.markets].join(', ')}`);
    this.log?.warn(`control API: forced exit of ${strategy}${market ? ` in ${market}` : ''}`);
    const result = this.run.kernel.forceExit(strategy, market);
    const exits = (result?.exits ?? []).map((e) => ({
      market: e.market,
      amount: e.amount,
      ...(e.decision && {
        refId: e.decision.intent.intentId,
        outcome: e.decision.kind === 'approve' ? 'approved' : e.decision.reason.code,
        ...(e.decision.kind === 'deny' && { message: e.decision.reason.message }),
      }),
      ...(e.note && { note: e.note }),
    }));
    return { status: 200, body: { strategy, exits } };
  }

  /**
   * Pauses one strategy: its new intents are denied PAUSED; its open orders and its position stay, and
   * an operator's forced exit of it still goes. Journaled, so a restart keeps it paused.
   */
  private pause(strategy: unknown, why: unknown): ActionResult {
    const unknown = this.unknownStrategy(strategy);
    if (unknown) return unknown;
    if (why !== undefined && typeof why !== 'string')
      return refuse(400, 'reason must be a string (why the strategy is paused), or left out');
    const name = strategy as string;
    const reason = `paused by an operator${why ? `: ${why.slice(0, MAX_REASON)}` : ''}`;
    const paused = this.run.kernel.pauseStrategy(name, reason);
    this.log?.warn(`control API: ${name} ${paused ? reason : 'was already paused'}`);
    return {
      status: 200,
      body: { strategy: name, paused: this.run.kernel.gate.pauses.get(name), ...(!paused && { message: `${name} was already paused` }) },
    };
  }

  /** Lifts one strategy's pause (and nothing else: a halt of all trading stays). */
  private resumeStrategy(strategy: unknown, killSwitch: unknown): ActionResult {
    const unknown = this.unknownStrategy(strategy);
    if (unknown) return unknown;
    if (killSwitch !== undefined)
      return refuse(
        400,
        'kill_switch goes with a resume of all trading, not with a strategy: send {"strategy": "…"} or {"kill_switch": true}, not both',
      );
    const name = strategy as string;
    const lifted = this.run.kernel.resumeStrategy(name);
    this.log?.warn(`control API: ${name} ${lifted ? 'resumed' : 'was not paused'}`);
    const halted = this.state.haltState();
    const note = halted.causes.length > 0 ? `; trading as a whole stays halted (${describe(halted.causes)})` : '';
    return {
      status: 200,
      body: {
        strategy: name,
        resumed: lifted !== undefined,
        ...(lifted && { was: lifted }),
        ...((!lifted || note) && { message: `${name} ${lifted ? 'resumed' : 'was not paused'}${note}` }),
      },
    };
  }

  /**
   * When `strategy` is not a running strategy's name: a 400 when it is no name at all, a 404 (no such
   * strategy, as for any missing resource) when it names none that runs; both name the running ones.
   * The same answer for exit, pause and resume. Undefined when it runs.
   */
  private unknownStrategy(strategy: unknown): ActionResult | undefined {
    const names = this.run.strategies.map((s) => s.name);
    if (typeof strategy === 'string' && names.includes(strategy)) return undefined;
    const running = names.length ? `running: ${names.join(', ')}` : 'none runs';
    if (typeof strategy !== 'string' || strategy === '')
      return refuse(400, `strategy must name a running strategy, e.g. {"strategy": "${names[0] ?? 'sma-btc'}"} (${running})`);
    return refuse(404, `no running strategy is named ${JSON.stringify(strategy)}: ${running}`);
  }

  /**
   * Stops new intents; open orders stay as they are (cancel-all is its own action). The operator's
   * halt is a cause of its own: it holds beside any other (a kill-switch trip lifted later leaves it).
   */
  private halt(why: unknown): ActionResult {
    if (why !== undefined && typeof why !== 'string') return refuse(400, 'reason must be a string (why trading is halted), or left out');
    const current = this.state.haltState();
    if (current.causes.some((c) => c.kind === 'operator'))
      return { status: 200, body: { trading: current, message: 'trading was already halted' } };
    const reason = `halted by an operator${why ? `: ${why.slice(0, MAX_REASON)}` : ''}`;
    this.run.kernel.haltKeepingOrders(reason);
    this.log?.warn(`control API: ${reason}`);
    return { status: 200, body: { trading: this.state.haltState() } };
  }

  /**
   * Lifts an operator's halt, and nothing else. A kill-switch trip (a loss or drawdown limit, orphans
   * at start) is lifted only when asked explicitly with `kill_switch: true`: a button pressed by habit
   * must not undo a loss limit. A cause that needs a restart (a ref_id conflict) is never lifted.
   * Whatever is not lifted stays, with its own reason, and the answer names it.
   */
  private resume(killSwitch: unknown): ActionResult {
    if (killSwitch !== undefined && typeof killSwitch !== 'boolean') return refuse(400, 'kill_switch must be true or false');
    const current = this.state.haltState();
    if (current.causes.length === 0) return { status: 200, body: { trading: current, message: 'trading was not halted' } };
    const may = current.causes.filter((c) => c.lift === 'resume' || (c.lift === 'kill-switch' && killSwitch === true));
    if (may.length === 0) {
      const trip = current.causes.find((c) => c.lift === 'kill-switch');
      if (trip)
        return refuse(
          409,
          `trading was halted by the kill switch (${trip.reason}), not by an operator: resume with {"kill_switch": true} (the dashboard's Resume kill switch button) to lift it`,
        );
      return refuse(409, `trading is halted by ${describe(current.causes)}: no resume lifts it; fix the cause and restart the run`);
    }
    const lifted = this.run.kernel.resume(may.map((c) => c.kind));
    const trading = this.state.haltState();
    this.log?.warn(
      `control API: lifted ${describe(lifted)}${trading.causes.length ? `; trading stays halted by ${describe(trading.causes)}` : '; trading resumed'}`,
    );
    return {
      status: 200,
      body: {
        trading,
        was: current,
        lifted,
        ...(trading.causes.length > 0 && {
          message: `trading stays halted by ${describe(trading.causes)}${trading.causes.some((c) => c.lift === 'kill-switch') && killSwitch !== true ? ' (resume with {"kill_switch": true} lifts a kill-switch trip)' : ''}`,
        }),
      },
    };
  }

  /** The kernel's cancel-everything: every order the journal holds open, confirmed closed at the venue. */
  private async cancelAll(): Promise<ActionResult> {
    this.log?.warn('control API: cancelling every open order');
    const result = await this.run.kernel.cancelAll();
    return { status: 200, body: { cancelled: result.closed, stillOpen: result.open } };
  }

  /** Asks the run to exit as Ctrl-C does: its shutdown cancels (per run.cancel_on_exit) and reports. */
  private stop(): ActionResult {
    if (!this.stopping) {
      this.stopping = true;
      this.log?.warn('control API: stop requested');
      this.run.requestStop('stop requested through the control API');
    }
    return { status: 202, body: { stopping: true } };
  }
}

/** Causes as an answer names them: each kind with its reason. */
function describe(causes: readonly HaltCause[]): string {
  return causes.map((c) => `${c.kind} (${c.reason}${c.lift === 'restart' ? '; lifted only by a restart' : ''})`).join(', ');
}

function refuse(status: number, message: string): ActionResult {
  return { status, body: { error: message } };
}
