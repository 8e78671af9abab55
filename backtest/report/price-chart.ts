/**
 * The price chart of the report pages, as browser code inlined into each page: a market's price line,
 * or its candles for a bar strategy (uPlot has no candles: a draw hook paints them from the open, high,
 * low and close series, which draw no path of their own), the fills marked, and the strategy's plotted
 * series joined onto the same time axis (uPlot.join: a plotted gap stays a gap, a time only another
 * series has is bridged). `tlPane` draws the series of a pane of their own (an RSI) below the price.
 */

import { CANDLE_COLOURS, CANDLE_PLUGIN_SCRIPT } from '../../src/bars/candle-script.js';

export { CANDLE_COLOURS };

/** Colours of plotted series that declare none, in order. */
export const PLOT_PALETTE = ['#e67e22', '#8e44ad', '#0891b2', '#be185d', '#4d7c0f', '#1e3a8a', '#a16207', '#475569'] as const;

/** Defines tlWidth, tlMarkers(buys, sells, buyColour, sellColour), tlPriceChart(el, p, plugins, syncKey), tlSpan(p) and tlPane(el, lines, syncKey, xRange) in the page. */
export const PRICE_CHART_SCRIPT = `
var TL_PALETTE = ${JSON.stringify(PLOT_PALETTE)};
function tlWidth(el) { return Math.max(320, el.clientWidth || 800); }
${CANDLE_PLUGIN_SCRIPT}
function tlDrawMarkers(u, points, up, color) {
  var ctx = u.ctx, r = 5 * uPlot.pxRatio, left = u.bbox.left, right = left + u.bbox.width;
  ctx.fillStyle = color;
  for (var i = 0; i < points.length; i++) {
    var x = u.valToPos(points[i][0], 'x', true), y = u.valToPos(points[i][1], 'y', true);
    if (x < left || x > right) continue;
    var dy = up ? 2 * r : -2 * r;
    ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x - r, y + dy); ctx.lineTo(x + r, y + dy); ctx.closePath(); ctx.fill();
  }
}
/** Buys (▲ below the price) and sells (▼ above it), each in its colour. */
function tlMarkers(buys, sells, buyColour, sellColour) {
  return { hooks: { draw: [function (u) {
    u.ctx.save(); tlDrawMarkers(u, buys, true, buyColour); tlDrawMarkers(u, sells, false, sellColour); u.ctx.restore();
  }] } };
}
function tlLines(lines, tables, series, offset) {
  for (var k = 0; k < lines.length; k++) {
    tables.push([lines[k].t, lines[k].v]);
    series.push({ label: lines[k].label, stroke: lines[k].color || TL_PALETTE[(k + offset) % TL_PALETTE.length], width: 1.5 });
  }
}
function tlChart(el, tables, series, yLabel, plugins, syncKey, height, xRange) {
  var data = tables.length === 1 ? tables[0] : uPlot.join(tables);
  var x = { time: true };
  // the pane opens on the price chart's span (so the two line up); a zoom afterwards is the user's
  if (xRange) x.range = function (u, min, max) { return u.status === 1 ? [min, max] : xRange; };
  var opts = {
    width: tlWidth(el), height: height, series: [{}].concat(series), plugins: plugins,
    axes: [{}, { label: yLabel, size: 70 }], cursor: { sync: { key: syncKey } }, scales: { x: x }
  };
  var plot = new uPlot(opts, data, el);
  el.setAttribute('data-series', String(series.length));
  return plot;
}
function tlPriceChart(el, p, plugins, syncKey) {
  var tables = [], series = [], hidden = { paths: function () { return null; }, points: { show: false } };
  if (p.candles) {
    var c = p.candles;
    tables.push([c.t, c.o, c.h, c.l, c.c]);
    ['open', 'high', 'low', 'close'].forEach(function (name) {
      series.push(Object.assign({ label: name + ' (' + c.timeframe + ')', stroke: '${CANDLE_COLOURS.up}' }, hidden));
    });
    plugins = [tlCandlePlugin(1, c.spacing)].concat(plugins);
  } else {
    tables.push([p.t, p.price]);
    series.push({ label: 'price', stroke: '#2563eb', width: 1 });
  }
  tlLines(p.lines || [], tables, series, 0);
  if (p.candles) el.setAttribute('data-candles', String(p.candles.t.length));
  return tlChart(el, tables, series, 'price', plugins, syncKey, 300);
}
/** The time span a price chart shows (its candles' or its points'), for the pane below it to line up. */
function tlSpan(p) {
  var t = p.candles ? p.candles.t : p.t;
  return t.length > 0 ? [t[0], t[t.length - 1] + (p.candles ? p.candles.spacing : 0)] : null;
}
function tlPane(el, lines, syncKey, xRange) {
  var tables = [], series = [];
  tlLines(lines, tables, series, 3);
  return tlChart(el, tables, series, 'own pane', [], syncKey, 180, xRange);
}
`;
