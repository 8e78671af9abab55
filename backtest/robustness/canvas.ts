/**
 * The browser script that draws the robustness charts (histograms, the cost-sweep lines, the
 * stability heat map) on plain canvases from the page's `robustness-data` JSON. Plain canvas rather
 * than uPlot: bars and a grid of cells are a few lines each, and uPlot has neither. It runs in the
 * page, so it is a string of ES5 here; it marks every canvas it drew with `data-drawn="1"`.
 */
export const ROBUSTNESS_CANVAS_SCRIPT = `(function () {
  var el = document.getElementById('robustness-data');
  if (!el) return;
  var data = JSON.parse(el.textContent);
  var drawn = 0;
  function fmt(v) {
    var a = Math.abs(v);
    return a >= 1e6 || (a > 0 && a < 1e-3) ? v.toExponential(2) : a >= 100 ? v.toFixed(0) : v.toFixed(2);
  }
  function frame(id) {
    var c = document.getElementById(id);
    if (!c) return null;
    var ctx = c.getContext('2d');
    ctx.clearRect(0, 0, c.width, c.height);
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = '#374151';
    return { c: c, ctx: ctx, left: 44, right: c.width - 10, top: 10, bottom: c.height - 28 };
  }
  function done(f) { f.c.setAttribute('data-drawn', '1'); drawn++; }
  function histogram(h) {
    var f = frame(h.id);
    if (!f) return;
    var ctx = f.ctx, n = h.counts.length, max = 0;
    for (var i = 0; i < n; i++) max = Math.max(max, h.counts[i]);
    var lo = h.from, hi = h.from + (h.width > 0 ? h.width * n : 1);
    var w = (f.right - f.left) / Math.max(1, n);
    ctx.fillStyle = h.colour;
    for (var k = 0; k < n; k++) {
      var bh = max > 0 ? (h.counts[k] / max) * (f.bottom - f.top) : 0;
      ctx.fillRect(f.left + k * w + 1, f.bottom - bh, Math.max(1, w - 2), bh);
    }
    ctx.strokeStyle = '#111827'; ctx.setLineDash([4, 3]);
    for (var m = 0; m < h.marks.length; m++) {
      var x = h.width > 0 ? f.left + ((h.marks[m] - lo) / (hi - lo)) * (f.right - f.left) : (f.left + f.right) / 2;
      ctx.beginPath(); ctx.moveTo(x, f.top); ctx.lineTo(x, f.bottom); ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.fillStyle = '#374151';
    ctx.fillText(fmt(lo) + (h.width > 0 ? '' : ' (every path)'), f.left, f.bottom + 14);
    var t = fmt(hi); if (h.width > 0) ctx.fillText(t, f.right - ctx.measureText(t).width, f.bottom + 14);
    ctx.fillText(String(max), 4, f.top + 10);
    done(f);
  }
  function lines(l) {
    var f = frame(l.id);
    if (!f) return;
    var ctx = f.ctx, xs = [], ys = [0];
    l.series.forEach(function (s) { xs = xs.concat(s.x); ys = ys.concat(s.y); });
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs), y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
    if (x1 === x0) x1 = x0 + 1;
    if (y1 === y0) { y1 += 1; y0 -= 1; }
    function px(v) { return f.left + ((v - x0) / (x1 - x0)) * (f.right - f.left); }
    function py(v) { return f.bottom - ((v - y0) / (y1 - y0)) * (f.bottom - f.top); }
    ctx.strokeStyle = '#9ca3af'; ctx.beginPath(); ctx.moveTo(f.left, py(0)); ctx.lineTo(f.right, py(0)); ctx.stroke();
    l.series.forEach(function (s, si) {
      ctx.strokeStyle = s.colour; ctx.fillStyle = s.colour; ctx.lineWidth = 2; ctx.beginPath();
      for (var i = 0; i < s.x.length; i++) { if (i) ctx.lineTo(px(s.x[i]), py(s.y[i])); else ctx.moveTo(px(s.x[i]), py(s.y[i])); }
      ctx.stroke();
      for (var j = 0; j < s.x.length; j++) ctx.fillRect(px(s.x[j]) - 3, py(s.y[j]) - 3, 6, 6);
      ctx.fillText(s.label, f.left + 8 + si * 140, f.top + 10);
    });
    ctx.lineWidth = 1; ctx.fillStyle = '#374151';
    ctx.fillText(fmt(y1) + ' ' + l.yLabel, 2, f.top + 24); ctx.fillText(fmt(y0), 2, f.bottom);
    ctx.fillText(l.xLabel + ': ' + fmt(x0) + ' … ' + fmt(x1), f.left, f.bottom + 18);
    done(f);
  }
  function ramp(t) {
    var stops = [[185, 28, 28], [234, 179, 8], [22, 163, 74]];
    var s = Math.min(1.999, Math.max(0, t) * 2), k = Math.floor(s), u = s - k, a = stops[k], b = stops[k + 1];
    return 'rgb(' + [0, 1, 2].map(function (i) { return Math.round(a[i] + (b[i] - a[i]) * u); }).join(',') + ')';
  }
  function heat(h) {
    var f = frame(h.id);
    if (!f) return;
    var ctx = f.ctx, lo = Infinity, hi = -Infinity, nx = h.xs.length, ny = h.ys.length;
    h.cells.forEach(function (row) { row.forEach(function (v) { if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); } }); });
    f.left = 60;
    var cw = (f.right - f.left) / nx, ch = (f.bottom - f.top) / ny;
    for (var yi = 0; yi < ny; yi++) {
      for (var xi = 0; xi < nx; xi++) {
        var v = h.cells[yi][xi], t = hi > lo ? (v - lo) / (hi - lo) : 1;
        ctx.fillStyle = v === null ? '#d1d5db' : ramp(h.lowerBetter ? 1 - t : t);
        var x = f.left + xi * cw, y = f.bottom - (yi + 1) * ch;
        ctx.fillRect(x + 0.5, y + 0.5, cw - 1, ch - 1);
        if (v !== null && cw > 38 && ch > 14) { ctx.fillStyle = '#111827'; ctx.fillText(fmt(v), x + 3, y + ch / 2 + 4); }
      }
    }
    if (h.best) { ctx.strokeStyle = '#111827'; ctx.lineWidth = 3; ctx.strokeRect(f.left + h.best[0] * cw + 1.5, f.bottom - (h.best[1] + 1) * ch + 1.5, cw - 3, ch - 3); ctx.lineWidth = 1; }
    ctx.fillStyle = '#374151';
    var stepX = Math.max(1, Math.ceil(nx / 12)), stepY = Math.max(1, Math.ceil(ny / 16));
    for (var i = 0; i < nx; i += stepX) ctx.fillText(h.xs[i], f.left + i * cw + cw / 2 - ctx.measureText(h.xs[i]).width / 2, f.bottom + 12);
    for (var j = 0; j < ny; j += stepY) ctx.fillText(h.ys[j], 2, f.bottom - j * ch - ch / 2 + 4);
    ctx.fillText(h.xLabel + ' →', f.right - 80, f.bottom + 24);
    if (h.yLabel) ctx.fillText(h.yLabel + ' ↑', 2, f.top + 2);
    done(f);
  }
  data.histograms.forEach(histogram);
  data.lines.forEach(lines);
  data.heat.forEach(heat);
  document.body.setAttribute('data-robustness-drawn', String(drawn));
})();`;
