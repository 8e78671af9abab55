/**
 * Numbers written where a decimal is taken (a money key of the config, a decimal param of a strategy
 * in its config block or `--params`): read from the text as written, under one rule. Apart from the
 * YAML walk (`yaml-money.ts`), so that reading `--params` loads no YAML parser.
 */
/** Digits a plain YAML number may carry and still be read exactly (a double holds 15 for sure). */
export const MAX_PLAIN_DIGITS = 15;

const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

const WRITTEN = new WeakMap<object, Readonly<Record<string, string>>>();

/** Keeps how the numbers of a params object were written (a config block, or `--params`). */
export function noteWrittenNumbers(params: object, written: Readonly<Record<string, string>>): void {
  if (Object.keys(written).length > 0) WRITTEN.set(params, written);
}

/** How the numbers of a params object were written, when known. */
export function writtenNumbersOf(params: object): Readonly<Record<string, string>> | undefined {
  return WRITTEN.get(params);
}

/**
 * A number written where a decimal is taken: the decimal as written ("0.10" stays "0.10"), or the
 * problem in our words when it is not a plain decimal of at most 15 significant digits.
 */
export function decimalAsWritten(written: string): { readonly value: string } | { readonly problem: string } {
  const problem = judge(written);
  return problem === undefined ? { value: written.replace(/^\+/, '') } : { problem };
}

export function judge(written: string): string | undefined {
  if (!PLAIN_DECIMAL.test(written)) {
    const kind = /e/i.test(written) && /\d/.test(written) ? 'a number with an exponent' : 'not a plain decimal';
    return `${written} is ${kind}: write the amount as a plain decimal in quotes, e.g. "25000"`;
  }
  const digits = significantDigits(written);
  if (digits > MAX_PLAIN_DIGITS) {
    return `${written} has ${digits} significant digits, more than a plain YAML number keeps exactly (${MAX_PLAIN_DIGITS}): put the amount in quotes, e.g. "${written.replace(/^\+/, '')}"`;
  }
  return undefined;
}

/** "25000" → 5, "0.00012" → 2, "100.50" → 5 (written trailing zeros count: they are what was written). */
export function significantDigits(written: string): number {
  const digits = written.replace(/[^0-9]/g, '').replace(/^0+/, '');
  return Math.max(digits.length, 1);
}
