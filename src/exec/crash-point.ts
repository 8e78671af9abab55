import { InputError } from '../core/index.js';

/**
 * TEST-ONLY crash points of the order lifecycle. The reliability suite kills a runner process at
 * one of these steps and proves that a restart reconciles the journal to the venue's truth from
 * each of them. The executors call the hook given in their context (`ExecContext.crash`); nothing
 * here reads the environment, so a library user or a backtest never meets a crash it did not ask for.
 *
 * Steps: `intent-journaled` (decision and "sent" mark written, nothing on the wire), `order-sent`
 * (the venue accepted the order; the journal knows only that it was sent), `order-response` (the
 * answer is journaled), `fill` (a fill is journaled, the rest of its batch and its report are not),
 * `cancel` (the venue acknowledged a cancel the journal has not recorded).
 */
export type CrashStep = 'intent-journaled' | 'order-sent' | 'order-response' | 'fill' | 'cancel';

export const CRASH_STEPS: readonly CrashStep[] = ['intent-journaled', 'order-sent', 'order-response', 'fill', 'cancel'];

/** Called by the executors as they pass each step; a test hook decides whether to die there. */
export type CrashHook = (step: CrashStep) => void;

/** The environment variable the CLI's run command reads once to build its crash hook. */
export const CRASH_AT_VARIABLE = 'TRADELOOP_TEST_CRASH_AT';

/**
 * The hook for `TRADELOOP_TEST_CRASH_AT=<step>`: it kills this process with SIGKILL the first time
 * the lifecycle reaches that step. Unset or empty gives no hook (the executors then skip the call
 * entirely, so the hot path pays one property read). `kill` is injectable so tests need not die.
 * A value that names no step is refused rather than ignored: a crash test that never crashes
 * would pass for the wrong reason.
 */
export function crashHookFrom(
  value: string | undefined,
  kill: () => void = () => process.kill(process.pid, 'SIGKILL'),
): CrashHook | undefined {
  if (value === undefined || value === '') return undefined;
  const at = CRASH_STEPS.find((s) => s === value);
  if (!at)
    throw new InputError(
      CRASH_AT_VARIABLE,
      `${JSON.stringify(value)} is not a crash step: use one of ${CRASH_STEPS.join(', ')}, or unset it`,
    );
  return (step) => {
    if (step === at) kill();
  };
}
