/**
 * Why a strategy was stopped, in a shape every outlet can show: the log (with the error object),
 * the live run's summary, and `tradeloop backtest` (its `--json` output and the line on stderr).
 * A user whose plugin throws must learn which strategy, which handler and where in their file,
 * not just that trading went quiet.
 */
export interface StrategyFailure {
  readonly strategy: string;
  /** The handler that failed: create, onEvent or onReport ('strategy' when stopped for another reason). */
  readonly handler: string;
  readonly message: string;
  /** The first frames of the stack, e.g. "at onEvent (/home/me/my-plugin.ts:12:11)"; empty without one. */
  readonly stack: readonly string[];
}

/** Frames kept: enough to reach the plugin's own line through a helper or two, short enough for a JSON line. */
export const STACK_FRAMES = 5;

/** The failure of `handler` that threw `thrown` (any value: plugins may throw strings). */
export function failureOf(strategy: string, handler: string, thrown: unknown): StrategyFailure {
  if (!(thrown instanceof Error)) return { strategy, handler, message: String(thrown), stack: [] };
  return { strategy, handler, message: thrown.message, stack: framesOf(thrown.stack) };
}

/** The first STACK_FRAMES "at …" lines of a stack, trimmed. */
export function framesOf(stack: string | undefined): string[] {
  if (stack === undefined) return [];
  const frames: string[] = [];
  for (const line of stack.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('at ')) continue;
    frames.push(t);
    if (frames.length === STACK_FRAMES) break;
  }
  return frames;
}

/** One line for a stopped reason: "onEvent threw: boom (at onEvent (/path/plugin.ts:3:11))". */
export function thrownReason(f: StrategyFailure): string {
  return `${f.handler} threw: ${f.message}${f.stack[0] === undefined ? '' : ` (${f.stack[0]})`}`;
}
