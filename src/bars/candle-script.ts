/**
 * The candles of a price chart, as browser code both the backtest report and the dashboard inline:
 * uPlot has no candles, so a draw hook paints them from the open, high, low and close series (which
 * draw no path of their own), `first` being the index of the open series in the chart's data and
 * `spacing` a bar's length in the x axis's unit. Defines tlCandlePlugin(first, spacing) in the page.
 */

/** Candle colours (rising, falling); the browser tests look for them. */
export const CANDLE_COLOURS = { up: '#0f766e', down: '#b45309' } as const;

export const CANDLE_PLUGIN_SCRIPT = `
function tlCandlePlugin(first, spacing) {
  return { hooks: { draw: [function (u) {
    var t = u.data[0], o = u.data[first], h = u.data[first + 1], l = u.data[first + 2], c = u.data[first + 3];
    var ctx = u.ctx, b = u.bbox;
    var w = Math.max(1, Math.round((u.valToPos(t[0] + spacing, 'x', true) - u.valToPos(t[0], 'x', true)) * 0.7));
    var wick = Math.max(1, Math.round(uPlot.pxRatio));
    ctx.save(); ctx.beginPath(); ctx.rect(b.left, b.top, b.width, b.height); ctx.clip();
    for (var i = 0; i < t.length; i++) {
      if (o[i] == null) continue;
      var x = Math.round(u.valToPos(t[i] + spacing / 2, 'x', true));
      if (x < b.left - w || x > b.left + b.width + w) continue;
      var yo = Math.round(u.valToPos(o[i], 'y', true)), yc = Math.round(u.valToPos(c[i], 'y', true));
      var yh = Math.round(u.valToPos(h[i], 'y', true)), yl = Math.round(u.valToPos(l[i], 'y', true));
      ctx.fillStyle = c[i] >= o[i] ? '${CANDLE_COLOURS.up}' : '${CANDLE_COLOURS.down}';
      ctx.fillRect(x - Math.floor(wick / 2), yh, wick, Math.max(1, yl - yh));
      ctx.fillRect(x - Math.floor(w / 2), Math.min(yo, yc), w, Math.max(1, Math.abs(yc - yo)));
    }
    ctx.restore();
  }] } };
}
`;
