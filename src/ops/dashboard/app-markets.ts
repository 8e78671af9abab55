/**
 * The dashboard's market charts, plain browser JavaScript served as /assets/markets.js (before
 * app.js, which calls it): a price chart per market (small multiples: each market's mid, with every
 * fill marked in its strategy's colour, buys filled and sells hollow, and a legend), and the daily
 * P&L bars per strategy. Bar lengths are geometry only: the figures shown come from the server.
 */
export const MARKETS_SCRIPT = String.raw`'use strict';
(function () {
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

  /** Draws (or updates) the chart in element el: the series and data as uPlot takes them. */
  TL.chart = function (el, series, data, height) {
    var c = charts[el.id];
    if (c && c.series.length !== series.length) { c.destroy(); c = undefined; }
    if (!c) {
      c = charts[el.id] = new uPlot({ width: widthOf(el), height: height || 180, series: series, axes: [{ stroke: '#8a96a3' }, { stroke: '#8a96a3', size: 70 }], legend: { live: false } }, data, el);
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
  TL.drawMarkets = function (points, fills, names, strategyMarkets) {
    if (points.length === 0) return;
    legend(document.getElementById('price-legend'), names);
    var xs = points.map(function (p) { return p.at / 1000; });
    var markets = [];
    points.forEach(function (p) { Object.keys(p.mids || {}).forEach(function (m) { if (markets.indexOf(m) < 0) markets.push(m); }); });
    (strategyMarkets || []).forEach(function (m) { if (markets.indexOf(m) < 0) markets.push(m); });
    markets.sort();
    markets.forEach(function (market) {
      var box = marketBox(market);
      var series = [{}, { label: 'mid', stroke: '#8a96a3' }];
      var data = [xs, points.map(function (p) { return p.mids && p.mids[market] != null ? p.mids[market] : null; })];
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
          data.push(ys);
        });
      });
      TL.chart(box.lastChild, series, data, 200);
      box.setAttribute('data-fills', String(marked));
      box.setAttribute('data-strategies', who.join(','));
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
