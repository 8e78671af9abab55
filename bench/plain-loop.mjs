// The comparison point of `tradeloop backtest` on a CSV file: the plain script anyone would write.
// Reads an OHLCV CSV (timestamp,open,high,low,close,volume), parses the closes into a Float64Array,
// and runs an SMA fast/slow cross over them (all in on the golden cross, all out on the death cross,
// a fee in bps on each side), then prints the round trips and the final equity as one JSON line.
// Usage: node bench/plain-loop.mjs FILE FAST SLOW FEE_BPS
import { readFileSync } from 'node:fs';

const [file, fastArg = '50', slowArg = '200', feeArg = '10'] = process.argv.slice(2);
const fast = Number(fastArg);
const slow = Number(slowArg);
const fee = Number(feeArg) / 10_000;
const lines = readFileSync(file, 'utf8').split('\n');
const times = new Float64Array(lines.length);
const closes = new Float64Array(lines.length);
let n = 0;
for (let i = 1; i < lines.length; i++) {
  if (lines[i] === '') continue;
  const fields = lines[i].split(',');
  times[n] = Date.parse(fields[0]);
  closes[n] = Number(fields[4]);
  n++;
}
let cash = 10_000;
let base = 0;
let trips = 0;
let fastSum = 0;
let slowSum = 0;
let prevDiff = Number.NaN;
for (let i = 0; i < n; i++) {
  const p = closes[i];
  fastSum += p - (i >= fast ? closes[i - fast] : 0);
  slowSum += p - (i >= slow ? closes[i - slow] : 0);
  if (i + 1 < slow) continue;
  const diff = fastSum / fast - slowSum / slow;
  if (prevDiff <= 0 && diff > 0 && base === 0) {
    base = (cash * (1 - fee)) / p;
    cash = 0;
  } else if (prevDiff >= 0 && diff < 0 && base > 0) {
    cash = base * p * (1 - fee);
    base = 0;
    trips++;
  }
  prevDiff = diff;
}
const equity = cash + base * closes[n - 1];
process.stdout.write(
  `${JSON.stringify({ points: n, round_trips: trips, equity: Number(equity.toFixed(2)), first: times[0], last: times[n - 1] })}\n`,
);
