/**
 * TEST-ONLY crash points. With `TRADELOOP_TEST_CRASH_AT=<step>` in its environment, the runner kills
 * itself with SIGKILL the first time it reaches that step of the order lifecycle, so the reliability
 * suite can prove that a restart reconciles the journal to the venue's truth from every step. This
 * is the one place the variable is read, once, when the module loads (it is set in the environment a
 * test gives the runner process); unset (always, outside tests) each call is a cheap no-op.
 *
 * Steps: `intent-journaled` (decision and "sent" mark written, nothing on the wire), `order-sent`
 * (the venue accepted the order; the journal knows only that it was sent), `order-response` (the
 * answer is journaled), `fill` (a fill is journaled, the rest of its batch and its report are not),
 * `cancel` (the venue acknowledged a cancel the journal has not recorded).
 */
export type CrashStep = 'intent-journaled' | 'order-sent' | 'order-response' | 'fill' | 'cancel';

export const CRASH_STEPS: readonly CrashStep[] = ['intent-journaled', 'order-sent', 'order-response', 'fill', 'cancel'];

// read once: an environment lookup per order would be a measurable cost on the backtest's hot path
const CRASH_AT = process.env.TRADELOOP_TEST_CRASH_AT;

/** Kills this process at `step` when the test-only variable names it. */
export function crashPoint(step: CrashStep): void {
  if (CRASH_AT === step) process.kill(process.pid, 'SIGKILL');
}
