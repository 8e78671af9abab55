/**
 * Base class of every failure tradeloop raises on purpose. A stable `code` lets callers branch
 * without matching message text; `toJSON` keeps structured logs readable.
 */
export class TradeloopError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message };
  }
}

/** Bad input from a user, a file or a strategy: names the field and the fix. */
export class InputError extends TradeloopError {
  readonly field: string;

  constructor(field: string, message: string, options?: { cause?: unknown }) {
    super('INPUT_INVALID', `${field}: ${message}`, options);
    this.field = field;
  }
}

/** A broken internal invariant: a bug, never a business outcome. */
export class InvariantError extends TradeloopError {
  constructor(message: string) {
    super('INVARIANT', message);
  }
}

/** Throws an InvariantError when `condition` is false. */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}
