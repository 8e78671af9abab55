import { CANDLE_COLOURS, CANDLE_PLUGIN_SCRIPT } from '../../bars/candle-script.js';

/**
 * The dashboard's market charts, plain browser JavaScript served as /assets/markets.js (before
 * app.js, which calls it): a price chart per market (small multiples: each market's mid, its candles
 * when a strategy takes bars of it, the strategies' plotted series of the price pane drawn over it
 * (GET /api/charts, read every 5 s), every fill marked in its strategy's colour, buys filled and sells
 * hollow, and a legend), and the daily P&L bars per strategy. Bar lengths are geometry only: the
 * figures shown come from the server.
 */
export const MARKETS_SCRIPT =
  `'use strict';
${CANDLE_PLUGIN_SCRIPT}
` +
  String.raw`(function () {
  var TL = window.TL = window.TL || {};
  var PALETTE = ['#4f9cf0', '#d9a400', '#b48ead', '#2fb171', '#e5534b', '#56b6c2', '#d08770', '#a3be8c'];
  var charts = {};

  TL.colour = function (names, name) { var i = names.indexOf(name); return PALETTE[(i < 0 ? names.length : i) % PALETTE.length]; };

  function legend(el, names) {
    el.textContent = '';
    names.forEach(function (n) {
      var s = document.createElement('span'); var i = document.createElement('i');
      i.style.background = TL.colour(names, n); s.appendChild(i); s.appendChild(document.createTextNode(n)); el.appendChild(s);
    });
  }
  TL.legend = legend;

  function nearest(x, xs) { var lo = 0, hi = xs.length - 1; while (lo < hi) { var mid = (lo + hi) >> 1; if (xs[mid] < x) lo = mid + 1; else hi = mid; } return lo; }
  TL.nearest = nearest;

  function widthOf(el) { return Math.max(200, Math.floor(el.clientWidth || el.parentNode.clientWidth || 300)); }

  /** Draws (or updates) the chart in element el: the series and data as uPlot takes them, and its plugins (candles). */
  TL.chart = function (el, series, data, height, plugins) {
    var c = charts[el.id];
    plugins = plugins || [];
    if (c && (c.series.length !== series.length || c.tlPlugins !== plugins.length)) { c.destroy(); c = undefined; }
    if (!c) {
      c = charts[el.id] = new uPlot({ width: widthOf(el), height: height || 180, series: series, plugins: plugins, axes: [{ stroke: '#8a96a3' }, { stroke: '#8a96a3', size: 70 }], legend: { live: false } }, data, el);
      c.tlPlugins = plugins.length;
    } else {
      c.setData(data);
    }
    return c;
  };

  TL.resizeCharts = function () {
    Object.keys(charts).forEach(function (id) { var el = document.getElementById(id); if (el) charts[id].setSize({ width: widthOf(el), height: charts[id].height }); });
  };

  function marketBox(market) {
    var id = 'price-' + market.replace(/[^A-Za-z0-9_-]/g, '_');
    var box = document.querySelector('#price-charts [data-market="' + market + '"]');
    if (!box) {
      box = document.createElement('div'); box.className = 'chart'; box.setAttribute('data-market', market);
      var h = document.createElement('h3'); h.textContent = market; box.appendChild(h);
      var el = document.createElement('div'); el.id = id; box.appendChild(el);
      document.getElementById('price-charts').appendChild(box);
    }
    return box;
  }

  /**
   * One chart per market seen (its mids in the equity samples, or a strategy's markets), each with its
   * fills as markers per strategy and side. Each chart's box says how many fills it marks
   * (data-fills) and whose (data-strategies), which the browser test reads.
   */
  TL.marketCharts = { bars: [], plots: [] };
  var OVERLAY_PALETTE = ['#e67e22', '#8e44ad', '#0891b2', '#be185d', '#4d7c0f'];

  /** Reads GET /api/charts now and every 5 s, redrawing after each answer. */
  TL.followCharts = function (token, redraw) {
    function once() {
      fetch('/api/charts', { headers: { authorization: 'Bearer ' + token } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (j) { if (j) { TL.marketCharts = j; redraw(); } })
        .catch(function () {});
    }
    once();
    setInterval(once, 5000);
  };

  /** The market's candles as columns (seconds), or null when no strategy takes bars of it. */
  function candlesOf(market) {
    var b = (TL.marketCharts.bars || []).filter(function (x) { return x.market === market; })[0];
    if (!b || b.rows.length === 0) return null;
    var t = b.rows.map(function (r) { return r[0] / 1000; });
    var spacing = 60;
    for (var i = 1; i < t.length; i++) if (i === 1 || t[i] - t[i - 1] < spacing) spacing = t[i] - t[i - 1];
    return { timeframe: b.timeframe, spacing: spacing, t: t, o: b.rows.map(function (r) { return r[1]; }), h: b.rows.map(function (r) { return r[2]; }), l: b.rows.map(function (r) { return r[3]; }), c: b.rows.map(function (r) { return r[4]; }) };
  }

  /** The plotted series of the price pane on the market, as [times (s), values] with their label and colour. */
  function overlaysOf(market) {
    return (TL.marketCharts.plots || []).filter(function (p) { return p.market === market && p.pane === 'price' && p.points.length > 0; });
  }

  TL.drawMarkets = function (points, fills, names, strategyMarkets) {
    if (points.length === 0) return;
    legend(document.getElementById('price-legend'), names);
    var xs = points.map(function (p) { return p.at / 1000; });
    var markets = [];
    points.forEach(function (p) { Object.keys(p.mids || {}).forEach(function (m) { if (markets.indexOf(m) < 0) markets.push(m); }); });
    (strategyMarkets || []).forEach(function (m) { if (markets.indexOf(m) < 0) markets.push(m); });
    (TL.marketCharts.bars || []).forEach(function (b) { if (markets.indexOf(b.market) < 0) markets.push(b.market); });
    markets.sort();
    markets.forEach(function (market) {
      var box = marketBox(market);
      var tables = [], series = [{}], plugins = [];
      var hidden = { paths: function () { return null; }, points: { show: false } };
      var cs = candlesOf(market);
      if (cs) {
        tables.push([cs.t, cs.o, cs.h, cs.l, cs.c]);
        ['open', 'high', 'low', 'close'].forEach(function (n) { series.push(Object.assign({ label: n + ' (' + cs.timeframe + ')', stroke: '${CANDLE_COLOURS.up}' }, hidden)); });
        plugins.push(tlCandlePlugin(1, cs.spacing));
      }
      tables.push([xs, points.map(function (p) { return p.mids && p.mids[market] != null ? p.mids[market] : null; })]);
      series.push({ label: 'mid', stroke: '#8a96a3' });
      var marked = 0, who = [];
      names.forEach(function (n) {
        var colour = TL.colour(names, n);
        ['BUY', 'SELL'].forEach(function (side) {
          var ys = xs.map(function () { return null; });
          fills.forEach(function (f) {
            if (f.market !== market || f.strategy !== n || f.side !== side || f.at < points[0].at) return;
            ys[nearest(f.at / 1000, xs)] = Number(f.price); marked++;
            if (who.indexOf(n) < 0) who.push(n);
          });
          series.push({ label: n + (side === 'BUY' ? ' buys' : ' sells'), stroke: colour, width: 0, points: { show: true, size: 9, width: 2, stroke: colour, fill: side === 'BUY' ? colour : '#171d24' } });
          tables.push([xs, ys]);
        });
      });
      var overlays = overlaysOf(market);
      overlays.forEach(function (p, k) {
        tables.push([p.points.map(function (q) { return q[0] / 1000; }), p.points.map(function (q) { return q[1]; })]);
        series.push({ label: p.strategy + ' ' + p.name, stroke: p.color || OVERLAY_PALETTE[k % OVERLAY_PALETTE.length], width: 1.5 });
      });
      TL.chart(box.lastChild, series, uPlot.join(tables), 200, plugins);
      box.setAttribute('data-fills', String(marked));
      box.setAttribute('data-strategies', who.join(','));
      box.setAttribute('data-candles', String(cs ? cs.t.length : 0));
      box.setAttribute('data-overlays', overlays.map(function (p) { return p.strategy + ' ' + p.name; }).join(','));
    });
  };

  /** Realized P&L per UTC day and strategy as horizontal bars (length by the largest day). */
  TL.drawDaily = function (days, names) {
    var el = document.getElementById('daily-chart');
    legend(document.getElementById('daily-legend'), names);
    el.textContent = '';
    var max = 0;
    days.forEach(function (d) { max = Math.max(max, Math.abs(Number(d.realized))); });
    var dates = [];
    days.forEach(function (d) { if (dates.indexOf(d.date) < 0) dates.push(d.date); });
    dates.slice(-14).forEach(function (date) {
      var row = document.createElement('div'); row.className = 'daily-row';
      var label = document.createElement('span'); label.textContent = date; row.appendChild(label);
      var bars = document.createElement('div');
      days.filter(function (d) { return d.date === date; }).forEach(function (d) {
        var v = Number(d.realized);
        var bar = document.createElement('div'); bar.className = 'bar' + (v < 0 ? ' neg' : '');
        bar.style.width = (max > 0 ? Math.abs(v) / max * 100 : 0) + '%';
        bar.style.background = TL.colour(names, d.strategy);
        bar.title = d.strategy + ': ' + d.realized + ' ' + (d.quote || '');
        bars.appendChild(bar);
      });
      row.appendChild(bars); el.appendChild(row);
    });
  };
})();
`;
