import type { DenialCode, DenialReason } from '../core/index.js';

/** Builds a denial: a stable code, a message for people, and the numbers behind it. */
export function deny(code: DenialCode, message: string, details: Record<string, string | number | boolean> = {}): DenialReason {
  return Object.freeze({ code, message, details: Object.freeze({ ...details }) });
}
