/**
 * report.html of `tradeloop divergence --out DIR`: the summary tables, the divergence timeline (the
 * cumulative cost of the differences, live minus replay, with a dot per difference coloured by its
 * cause) and every difference in a table. Offline like the backtest report: the same page frame and
 * Content-Security-Policy, the chart drawn on a plain canvas by an inline script that marks it
 * `data-drawn="1"` and sets `data-divergence-drawn` on the body.
 */
import { formatMoney } from '../../src/core/index.js';
import type { DifferenceCause } from './compare.js';
import { CAUSE_TEXT } from './output.js';
import type { DivergenceReport } from './divergence.js';
import { escapeHtml, renderPlainHtml } from '../report/html.js';

/** The colour of each cause on the timeline. */
export const CAUSE_COLOURS: Readonly<Record<DifferenceCause, string>> = {
  'fill-model': '#2563eb',
  latency: '#d97706',
  'data-gap': '#7c3aed',
  'denial-one-side': '#dc2626',
  unexplained: '#4b5563',
};

/** The timeline's data: one series per quote asset, time in epoch ms. */
export interface TimelineData {
  readonly from: number;
  readonly to: number;
  readonly series: ReadonlyArray<{
    readonly quote: string;
    readonly points: ReadonlyArray<{ readonly t: number; readonly cum: number; readonly colour: string; readonly index: number }>;
  }>;
}

export function timelineData(r: DivergenceReport): TimelineData {
  const byQuote = new Map<string, { t: number; cum: number; colour: string; index: number }[]>();
  const sums = new Map<string, number>();
  for (const d of r.differences) {
    const cum = (sums.get(d.quote) ?? 0) + d.cost.toNumber();
    sums.set(d.quote, cum);
    const list = byQuote.get(d.quote) ?? [];
    list.push({ t: d.at, cum, colour: CAUSE_COLOURS[d.cause], index: d.index });
    byQuote.set(d.quote, list);
  }
  return { from: r.inputs.span.first, to: r.inputs.span.last, series: [...byQuote].map(([quote, points]) => ({ quote, points })) };
}

/** The whole page. */
export function renderDivergenceHtml(r: DivergenceReport, drift: { readonly max?: string; readonly exceeded: boolean }): string {
  const summary: [string, string][] = [
    ['Recording', r.recording],
    ['Journal', r.journal],
    ['Pairing tolerance', `${r.toleranceMs} ms`],
    ['Replay latency', `${r.latencyMs} ms`],
    ...r.strategies.flatMap((s): [string, string][] => [
      [`${s.name} (${s.market}, ${s.fillModel} fills)`, `${s.paired} decisions paired`],
      ['  live', `${s.live.decisions} decisions, ${s.live.denials} denied, ${s.live.fills} fills, P&L ${formatMoney(s.live.pnl, s.quote)}`],
      [
        '  replay',
        `${s.replay.decisions} decisions, ${s.replay.denials} denied, ${s.replay.fills} fills, P&L ${formatMoney(s.replay.pnl, s.quote)}`,
      ],
    ]),
    ...Object.entries(r.drift).map(([q, d]): [string, string] => [
      'Drift |live − replay P&L|',
      `${formatMoney(d, q)}${drift.max === undefined ? '' : drift.exceeded ? ` (above --max-drift ${drift.max})` : ` (within --max-drift ${drift.max})`}`,
    ]),
  ];
  const first = r.differences[0];
  const costs: [string, string][] = [
    ...Object.entries(r.costByKind).flatMap(([q, m]) => Object.entries(m).map(([k, v]): [string, string] => [`${k}`, formatMoney(v, q)])),
    ...Object.entries(r.costByCause).flatMap(([q, m]) =>
      Object.entries(m).map(([k, v]): [string, string] => [`cause: ${k}`, formatMoney(v, q)]),
    ),
  ];
  const legend = (Object.keys(CAUSE_COLOURS) as DifferenceCause[])
    .map((c) => `<span class="cause"><i style="background:${CAUSE_COLOURS[c]}"></i>${escapeHtml(c)}</span>`)
    .join(' ');
  const firstText =
    first === undefined
      ? 'No differences: every decision, risk decision and fill matched.'
      : `First difference: #${first.index} at ${new Date(first.at).toISOString()}, ${first.strategy} decision ${first.seq}: ${first.detail}. Likely cause: ${CAUSE_TEXT[first.cause]}.`;
  const html = `<h2>Divergence timeline</h2>
<p class="note">Cumulative cost of the differences (live minus replay P&amp;L, quote asset); a dot per difference, coloured by its likely cause. ${legend}</p>
<canvas id="divergence-timeline" class="dchart" width="1040" height="260"></canvas>
<p class="first">${escapeHtml(firstText)}</p>
<h2>Differences</h2>
${differencesTable(r)}
${r.notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('\n')}`;
  return renderPlainHtml({
    title: `Divergence: ${r.strategies.map((s) => s.name).join(', ')}`,
    subtitle: `${r.differences.length} differences between the replay of ${r.recording} and ${r.journal}`,
    tables: [
      { heading: 'Summary', rows: summary },
      { heading: 'Cost by kind and cause', rows: costs.length === 0 ? [['(no differences)', '']] : costs },
    ],
    extra: { html, data: timelineData(r), css: TIMELINE_CSS, script: TIMELINE_SCRIPT },
  });
}

function differencesTable(r: DivergenceReport): string {
  const head = ['#', 'time', 'strategy', 'decision', 'kind', 'cost', 'cause', 'detail'].map((h) => `<th>${h}</th>`).join('');
  const rows = r.differences.map((d) => {
    const cells = [
      `${d.index}`,
      new Date(d.at).toISOString(),
      d.strategy,
      String(d.seq),
      d.kind,
      formatMoney(d.cost, d.quote),
      d.follows === undefined ? d.cause : `${d.cause} (follows #${d.follows})`,
      d.detail,
    ];
    return `<tr>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  return `<table class="trades"><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

const TIMELINE_CSS = `
.dchart { width: 100%; max-width: 1040px; border: 1px solid #e5e7eb; }
.cause { white-space: nowrap; margin-right: 8px; } .cause i { display: inline-block; width: 10px; height: 10px; border-radius: 5px; margin-right: 3px; }
.first { font-weight: 500; }
`;

/** Draws the timeline from the page's data (ES5: it runs in the browser). */
export const TIMELINE_SCRIPT = `(function () {
  var el = document.getElementById('robustness-data');
  var c = document.getElementById('divergence-timeline');
  if (!el || !c) return;
  var data = JSON.parse(el.textContent);
  var ctx = c.getContext('2d');
  var left = 70, right = c.width - 12, top = 12, bottom = c.height - 30;
  var x0 = data.from, x1 = data.to, y0 = 0, y1 = 0;
  data.series.forEach(function (s) { s.points.forEach(function (p) { x0 = Math.min(x0, p.t); x1 = Math.max(x1, p.t); y0 = Math.min(y0, p.cum); y1 = Math.max(y1, p.cum); }); });
  if (x1 <= x0) x1 = x0 + 1;
  if (y1 === y0) { y1 += 1; y0 -= 1; }
  function px(t) { return left + ((t - x0) / (x1 - x0)) * (right - left); }
  function py(v) { return bottom - ((v - y0) / (y1 - y0)) * (bottom - top); }
  ctx.font = '11px system-ui, sans-serif';
  ctx.strokeStyle = '#9ca3af'; ctx.beginPath(); ctx.moveTo(left, py(0)); ctx.lineTo(right, py(0)); ctx.stroke();
  ctx.fillStyle = '#374151';
  ctx.fillText(y1.toFixed(2), 4, top + 10); ctx.fillText(y0.toFixed(2), 4, bottom);
  ctx.fillText(new Date(x0).toISOString().slice(0, 19), left, bottom + 16);
  var end = new Date(x1).toISOString().slice(0, 19); ctx.fillText(end, right - ctx.measureText(end).width, bottom + 16);
  data.series.forEach(function (s) {
    ctx.strokeStyle = '#111827'; ctx.lineWidth = 1.5; ctx.beginPath(); ctx.moveTo(px(x0), py(0));
    var y = 0;
    s.points.forEach(function (p) { ctx.lineTo(px(p.t), py(y)); ctx.lineTo(px(p.t), py(p.cum)); y = p.cum; });
    ctx.lineTo(px(x1), py(y)); ctx.stroke();
    s.points.forEach(function (p) { ctx.fillStyle = p.colour; ctx.beginPath(); ctx.arc(px(p.t), py(p.cum), 5, 0, 2 * Math.PI); ctx.fill(); });
  });
  c.setAttribute('data-drawn', '1');
  document.body.setAttribute('data-divergence-drawn', '1');
})();`;
