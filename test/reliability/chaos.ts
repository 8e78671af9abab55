/**
 * `npm run chaos [-- --intents N --faults N --seed S --kills N --fuzz N --kill-latency-ms MS --exit-rounds N --world-kills N --outages N --journals N --journal-loss N]`: the reliability issue's
 * chaos run. Runs at least 2,000 intents under at least 10,000 injected faults through the whole
 * live pipeline and checks its invariants, fuzzes 10,000 malformed responses per response schema,
 * then (unless `--kills 0`) SIGKILLs the real runner at random moments at least 100 times with a
 * restart after each (the kill loop's sandbox delays every CreateOrder and CancelOrder by
 * `--kill-latency-ms`, default 300, so kills land on writes in flight), and stops `--exit-rounds`
 * runs (default 5) with SIGINT while half their cancels get a 503, and stops the sandbox under a
 * trading runner for 20 s `--outages` times (default 2). Prints the figures; exits 1 on any violation.
 *
 * `--world-kills N` (default 30): SIGKILLs `tradeloop run` on its embedded sandbox N times, each
 * restart continuing the same world, and checks after each that the world holds every order and
 * fill the journal has, under the same ref_id.
 *
 * `--journals 0` skips the journal scenarios (default: once): a copied journal, an empty journal with
 * a used prefix and a second bot on a running bot's journal (by its name, a symbolic link or a hard
 * link) are refused at start, and no ref_id of
 * ours names two records at the venue across orders, quote executions and transfers.
 *
 * `--journal-loss N` (default 1; 0 skips): N rounds of two experiments on the journal under a trading
 * bot. A journal write that fails (the file may no longer grow after a seeded number of writes:
 * SQLITE_FULL, as on a full disk) must halt the run with exit 5, nothing sent that the journal did not
 * record, and a restart must trade again; the journal's folder deleted mid-run must be found, the run
 * halted with exit 5, nothing approved or sent after the alert, and the next start on the empty path
 * refused.
 */
import { parseArgs } from 'node:util';
import { runChaos } from './chaos-run.js';
import { fuzzResponses } from './fuzz-responses.js';
import { runExitChaos } from './exit-503.js';
import { runKillLoop } from './kill-loop.js';
import { runWorldKillLoop } from './world-kill-loop.js';
import { runOutageLoop } from './outage-loop.js';
import { runJournalChaos } from './journal-chaos.js';
import { runJournalLoss } from './journal-loss.js';

const { values } = parseArgs({
  options: {
    intents: { type: 'string', default: '2000' },
    faults: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    kills: { type: 'string', default: '100' },
    fuzz: { type: 'string', default: '10000' },
    'kill-latency-ms': { type: 'string', default: '300' },
    'exit-rounds': { type: 'string', default: '5' },
    'world-kills': { type: 'string', default: '30' },
    outages: { type: 'string', default: '2' },
    journals: { type: 'string', default: '1' },
    'journal-loss': { type: 'string', default: '1' },
  },
});

function count(name: string, v: string | undefined): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name}: expected a whole number, got ${JSON.stringify(v)}`);
  return n;
}

const intents = count('intents', values.intents);
const faults = count('faults', values.faults);
const kills = count('kills', values.kills);
const chaos = await runChaos({ intents, faults, seed: count('seed', values.seed), revokeEveryMs: 120_000 });
const line = (k: string, v: unknown): void =>
  void process.stdout.write(`${k.padEnd(34)} ${typeof v === 'string' ? v : JSON.stringify(v)}\n`);
process.stdout.write('chaos run (live pipeline, local sandbox, injected faults)\n');
line('intents (approved)', `${chaos.intents} (${chaos.approved})`);
line('faults injected', chaos.faultsInjected);
line('faults by mode', chaos.faultsByMode);
line('request attempts', chaos.requests);
const badBodies = ['malformed', 'wrong-shape', 'truncate'].reduce((n, m) => n + (chaos.faultsByMode[m] ?? 0), 0);
line(
  'malformed / wrong-shape / cut bodies',
  `${badBodies} (${((100 * badBodies) / Math.max(1, chaos.requests)).toFixed(1)} % of attempts)`,
);
line('simulated / wall seconds', `${chaos.simulatedSeconds} / ${chaos.wallSeconds}`);
line(
  'venue orders / quote execs / transfers',
  `${chaos.figures.venueOrders} / ${chaos.figures.venueQuoteExecutions} / ${chaos.figures.venueTransfers}`,
);
line('venue fills / journal fills', `${chaos.figures.venueFills} / ${chaos.figures.journalFills}`);
line('ever unresolved / still unresolved', `${chaos.figures.everUnresolved} / ${chaos.figures.stillUnresolved}`);
line('all resolved after faults stopped', `${chaos.resolvedAfterMs} ms`);
line(
  '401 bursts / 401s / token reqs each',
  `${chaos.tokenBursts} / ${chaos.burst401s} / ${[...new Set(chaos.tokenRequestsPerBurst)].join(',')}`,
);
line('unhandled rejections', chaos.unhandledRejections);
line('balances (sandbox = journal)', chaos.figures.balances);
let violations = [...chaos.violations];
if (chaos.intents < intents) violations.push(`only ${chaos.intents} intents (wanted ${intents})`);
if (chaos.faultsInjected < faults) violations.push(`only ${chaos.faultsInjected} faults (wanted ${faults})`);
const perSchema = count('fuzz', values.fuzz);
if (perSchema > 0) {
  const started = performance.now();
  const fuzz = fuzzResponses(perSchema, count('seed', values.seed));
  process.stdout.write('\nresponse fuzzing (every operation the client parses)\n');
  line('schemas / bodies / typed errors', `${fuzz.schemas} / ${fuzz.bodies} / ${fuzz.typedErrors}`);
  line('wall seconds', Math.round((performance.now() - started) / 100) / 10);
  violations = [...violations, ...fuzz.failures];
}
if (kills > 0) {
  const loop = await runKillLoop({
    kills,
    seed: count('seed', values.seed),
    writeLatencyMs: count('kill-latency-ms', values['kill-latency-ms']),
  });
  process.stdout.write('\nrandom SIGKILL loop (real runner processes, out-of-process sandbox)\n');
  line('kills / restarts / with intent in flight', `${loop.kills} / ${loop.restarts} / ${loop.inFlightKills}`);
  line('left in flight by kind', loop.inFlightByKind);
  line('denied by the risk gate', loop.deniedByCode);
  line('venue orders / journal intents', `${loop.venueOrders} / ${loop.journalIntents}`);
  line('wall seconds', loop.wallSeconds);
  violations = [...violations, ...loop.violations];
}
const exitRounds = count('exit-rounds', values['exit-rounds']);
if (exitRounds > 0) {
  const exit = await runExitChaos({ rounds: exitRounds, seed: count('seed', values.seed) });
  process.stdout.write('\nexit under 50 % 503s on CancelOrder (real runner processes, SIGINT)\n');
  line('rounds / exit 0 / exit 3 naming the open', `${exit.rounds} / ${exit.exit0} / ${exit.exit3}`);
  line('exit cancels refused and sent again', exit.cancelsRefused);
  line('orders of ours open at the end', exit.openAtEnd);
  line('wall seconds', exit.wallSeconds);
  violations = [...violations, ...exit.violations];
}
const outages = count('outages', values.outages);
if (outages > 0) {
  const out = await runOutageLoop({ outages, seed: count('seed', values.seed) });
  process.stdout.write('\nvenue outages (real runner, sandbox process stopped 20 s each)\n');
  line('outages / unreachable / back lines', `${out.outages} / ${out.unreachableLines} / ${out.reachableLines}`);
  line('warnings during outages (retrying)', `${out.warnings} (${out.retryWarnings})`);
  line('venue found again after (ms)', out.recoveryMs);
  line('venue orders', out.venueOrders);
  line('wall seconds', out.wallSeconds);
  violations = [...violations, ...out.violations];
}
const worldKills = count('world-kills', values['world-kills']);
if (worldKills > 0) {
  // tradeloop run SIGKILLed on its embedded sandbox: the world in its state file must hold the journal
  const storm = await runWorldKillLoop({ kills: worldKills, seed: count('seed', values.seed) });
  process.stdout.write('\nkill-and-restart storm on the embedded sandbox (its world in a state file)\n');
  line('kills / sandbox instances', `${storm.kills} / ${storm.instances}`);
  line('world orders / journal fills', `${storm.worldOrders} / ${storm.journalFills}`);
  line('wall seconds', storm.wallSeconds);
  violations = [...violations, ...storm.violations];
}
if (count('journals', values.journals) > 0) {
  // copied, emptied and doubly opened journals must be refused at start; no ref_id of ours names two records;
  // an edited journal's missing order is journaled again at the next start
  const j = await runJournalChaos({ seed: count('seed', values.seed) });
  process.stdout.write('\ncopied, emptied, shared and edited journals (real runner processes, sandbox process)\n');
  line('starts to refuse / refused (exit 2)', `${j.refusalsWanted} / ${j.refused}`);
  line('venue records / ref_ids on two', `${j.venueRecords} / ${j.duplicateRefIds}`);
  line('edited journal: orphan journaled again', j.editedOrphan ?? 'none');
  line('wall seconds', j.wallSeconds);
  violations = [...violations, ...j.violations];
}
const lossRounds = count('journal-loss', values['journal-loss']);
if (lossRounds > 0) {
  // a journal that refuses a write, and one deleted under the bot: each halts the run (exit 5), nothing is sent after
  const l = await runJournalLoss({ rounds: lossRounds, seed: count('seed', values.seed) });
  process.stdout.write('\njournal write failure and journal deleted mid-run (real runner processes, sandbox process)\n');
  line('write failures halted, exit 5 / rounds', `${l.writeFailuresHalted} / ${l.rounds}`);
  line('restarts trading after the fault', `${l.restartsTrading} / ${l.rounds}`);
  line('deletions halted, exit 5 / rounds', `${l.deletionsHalted} / ${l.rounds}`);
  line('deletion found after (ms)', l.detectionMs);
  line('next starts refused (empty journal)', `${l.nextStartsRefused} / ${l.rounds}`);
  line('unjournaled orders / sent after halt', `${l.unjournaledOrders} / ${l.sentAfterHalt}`);
  line('venue orders', l.venueOrders);
  line('wall seconds', l.wallSeconds);
  violations = [...violations, ...l.violations];
}
for (const v of violations) process.stdout.write(`VIOLATION: ${v}\n`);
process.stdout.write(violations.length ? `\n${violations.length} violation(s)\n` : '\nall invariants held\n');
process.exitCode = violations.length ? 1 : 0;
