/**
 * What each column of a price CSV holds (its layout), read from the header row: by the column names
 * of the price file layouts (`timestamp,price`, `timestamp,open,high,low,close,volume`, any order), or,
 * when a column is picked as the price (`--price-column`), the time column and that one, every other
 * column read past as a field. The CSV scanner (`price-file.ts`) reads rows by the layout.
 */
import { InputError } from '../../core/index.js';
import { clip, isDigit, type Problems } from './price-data.js';

export const TIME = 0;
export const PRICE = 1;
export const OPEN = 2;
export const HIGH = 3;
export const LOW = 4;
export const VOLUME = 5;
/** A column read past (not parsed, not stored): every column but the time and the picked price. */
export const SKIP = 6;
const KIND_LABELS = ['timestamp', 'price', 'open', 'high', 'low', 'volume'] as const;
const COLUMN_KINDS: Readonly<Record<string, number>> = {
  timestamp: TIME,
  price: PRICE,
  average_price: PRICE,
  close: PRICE,
  open: OPEN,
  high: HIGH,
  low: LOW,
  volume: VOLUME,
};
/** The names a picked column's file may give its time column. */
export const TIME_NAMES: readonly string[] = ['timestamp', 'time', 'date', 'datetime'];
const LAYOUTS_HINT = 'expected a header row "timestamp,price" or "timestamp,open,high,low,close,volume"';

export interface CsvLayout {
  /** The kind of each column, in the file's order (SKIP for a column read past). */
  readonly kinds: readonly number[];
  /** The kinds present, each once (the columns stored). */
  readonly present: readonly number[];
  /** Each kind's name in messages: the picked column's own name for its price. */
  readonly labels: readonly string[];
  /** Open, high, low and close are all present: each row is checked for consistency. */
  readonly ohlc: boolean;
  /**
   * A picked column: a row's fields past its last are read as empty (the missing one is reported by
   * name) and fields past the header's are not counted, as only two of them are read.
   */
  readonly loose: boolean;
}

/** Where the header row ends (after a BOM), and the row itself, trimmed. */
export function headerRow(text: string): { header: string; start: number; end: number } {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  return { header: text.slice(start, end).trim(), start, end };
}

/** A header's column names as compared: quotes and spaces around each removed, lower case. */
export function columnNames(header: string): string[] {
  return header.split(',').map((h) =>
    h
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim()
      .toLowerCase(),
  );
}

/**
 * The layout of the header row that starts `text` (after a BOM) and where that row ends. With
 * `pick`, the named column is the price (see `pickedLayout`). Throws when the header cannot be used.
 */
export function readLayout(text: string, problems: Problems, pick?: PickedColumn): { layout: CsvLayout; headerEnd: number } {
  const { header, end } = headerRow(text);
  if (header === '' || isDigit(header.charCodeAt(0))) {
    problems.atLine(
      1,
      `the first line must be the header row; ${pick === undefined ? LAYOUTS_HINT : `expected the names of its columns, one of them "${pick.name}"`}`,
    );
  }
  problems.throwIfAny();
  if (pick !== undefined) return { layout: pickedLayout(header, pick), headerEnd: end };
  const layout = namedLayout(header, problems);
  problems.throwIfAny();
  return { layout: layout!, headerEnd: end };
}

/** Reads the header row into the kind of each column, or reports why it cannot be used. */
function namedLayout(header: string, problems: Problems): CsvLayout | undefined {
  const kinds: number[] = [];
  const seen = new Map<number, string>();
  for (const name of columnNames(header)) {
    const kind = COLUMN_KINDS[name];
    if (kind === undefined) {
      problems.atLine(1, `unknown column "${clip(name)}"; ${LAYOUTS_HINT}`);
      continue;
    }
    const before = seen.get(kind);
    if (before !== undefined) problems.atLine(1, `columns "${before}" and "${name}" both give the ${KIND_LABELS[kind]}; keep one`);
    seen.set(kind, name);
    kinds.push(kind);
  }
  if (!seen.has(TIME)) problems.atLine(1, `missing column "timestamp"; ${LAYOUTS_HINT}`);
  if (!seen.has(PRICE)) problems.atLine(1, `missing column "price" (or "close"); ${LAYOUTS_HINT}`);
  const ohlc = [OPEN, HIGH, LOW].filter((k) => seen.has(k));
  if (ohlc.length > 0 && (ohlc.length < 3 || seen.get(PRICE) !== 'close')) {
    problems.atLine(1, 'OHLC data needs all of the columns open, high, low and close');
  }
  if (problems.count > 0) return undefined;
  return { kinds, present: [...kinds].sort(), labels: KIND_LABELS, ohlc: ohlc.length === 3, loose: false };
}

/** A column picked as the price, and what the caller calls the choice in its errors (a flag's name). */
export interface PickedColumn {
  readonly name: string;
  readonly field: string;
  readonly source: string;
}

/**
 * The time column (timestamp, time, date or datetime) and the picked column as the price; every other
 * column is read past, whatever it holds. Throws InputError (the caller's field) naming the columns
 * when the picked one is not there, or there is no time column.
 */
function pickedLayout(header: string, pick: PickedColumn): CsvLayout {
  const names = columnNames(header);
  const name = pick.name.trim().toLowerCase();
  const priceAt = names.indexOf(name);
  if (priceAt < 0) throw new InputError(pick.field, `${pick.source} has no column "${pick.name}"; its columns are ${names.join(', ')}`);
  const timeAt = names.findIndex((n) => TIME_NAMES.includes(n));
  if (timeAt < 0) throw new InputError(pick.field, `${pick.source} has no time column (timestamp); its columns are ${names.join(', ')}`);
  if (timeAt === priceAt)
    throw new InputError(
      pick.field,
      `"${pick.name}" is the time column of ${pick.source}; name the column that holds the price, such as close`,
    );
  const kinds = names.map((_, i) => (i === timeAt ? TIME : i === priceAt ? PRICE : SKIP));
  const labels: string[] = [...KIND_LABELS];
  labels[PRICE] = name;
  return { kinds, present: [TIME, PRICE], labels, ohlc: false, loose: true };
}
