/**
 * Ten hand-made hourly OHLCV bars (open, high, low, close) shared by the intrabar tests: sma-cross 2/3
 * buys at bar 6's open (103); bar 7 goes down to 95 and up to 104 and closes at 103.8.
 */
export const DIP_BARS: ReadonlyArray<readonly [number, number, number, number]> = [
  [100, 100.5, 99.5, 100],
  [100, 100.5, 98.5, 99],
  [99, 99.5, 97.5, 98],
  [98, 98.5, 96.5, 97],
  [97, 99.5, 96.5, 99],
  [99, 102.5, 98.5, 102],
  [103, 103.6, 102, 103.5],
  [103.5, 104, 95, 103.8],
  [103.8, 105, 103, 104.5],
  [104.5, 106, 104, 105.5],
];
