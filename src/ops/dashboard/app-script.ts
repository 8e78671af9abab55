/**
 * The dashboard's script, plain browser JavaScript served as /assets/app.js (no build step). It takes
 * the token from the URL's fragment (#token=…, never sent to a server) or asks for it, keeps it in
 * the tab's session storage, follows /api/events with fetch (EventSource cannot send a header), and
 * presses the control API's actions for the buttons. Amounts come from the server already shown at
 * their asset's precision (the `…Shown` fields): the page does no money arithmetic.
 */
export const DASHBOARD_SCRIPT = String.raw`'use strict';
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var token = null;
  var snapshot = null;
  var points = [];
  var fills = [];
  var fillKeys = {};
  var names = [];
  var strategyMarkets = [];
  var MAX_POINTS = 3600;
  var TL = window.TL;

  function readToken() {
    var m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
    if (m) {
      sessionStorage.setItem('tradeloop-token', decodeURIComponent(m[1]));
      history.replaceState(null, '', location.pathname);
    }
    return sessionStorage.getItem('tradeloop-token');
  }

  function say(text, bad) { var el = $('message'); el.textContent = text; el.className = bad ? 'bad' : ''; }

  function cell(text, cls) { var td = document.createElement('td'); td.textContent = text == null ? '' : String(text); if (cls) td.className = cls; return td; }

  function fillTable(id, rows, render, empty) {
    var body = $(id).tBodies[0];
    body.textContent = '';
    if (!rows || rows.length === 0) { var tr = document.createElement('tr'); tr.appendChild(cell(empty || 'none', 'empty')); body.appendChild(tr); return; }
    rows.forEach(function (r) { var tr = document.createElement('tr'); render(r).forEach(function (td) { tr.appendChild(td); }); body.appendChild(tr); });
  }

  function time(ms) { return new Date(ms).toLocaleTimeString(); }
  function age(ms) { if (ms == null) return ''; var s = Math.round(ms / 1000); return s < 120 ? s + ' s' : Math.round(s / 60) + ' min'; }

  function api(path, body) {
    return fetch(path, { method: 'POST', headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' }, body: JSON.stringify(body || {}) })
      .then(function (res) { return res.json().then(function (j) { return { status: res.status, body: j }; }); });
  }

  function action(name, body, done) {
    say(name + '…');
    api('/api/' + name, body).then(function (r) {
      if (r.status >= 400) { say(name + ': ' + (r.body.error || r.status), true); return; }
      say(done(r.body));
    }).catch(function (e) { say(name + ' failed: ' + e.message, true); });
  }

  function wire() {
    $('btn-halt').onclick = function () { action('halt', { reason: 'from the dashboard' }, function () { return 'halted: new intents are denied'; }); };
    $('btn-resume').onclick = function () { action('resume', {}, function (b) { return b.message || 'resumed'; }); };
    $('btn-resume-kill').onclick = function () {
      if (!confirm('Lift the kill switch? It tripped on a loss or safety limit.')) return;
      action('resume', { kill_switch: true }, function (b) { return b.message || 'kill switch lifted'; });
    };
    $('btn-cancel-all').onclick = function () {
      action('cancel-all', {}, function (b) { return 'cancelled ' + b.cancelled.length + ' order(s)' + (b.stillOpen.length ? ', still open: ' + b.stillOpen.join(', ') : ''); });
    };
    $('btn-stop').onclick = function () {
      if (!confirm('Stop the bot? It exits as on Ctrl-C.')) return;
      action('stop', {}, function () { return 'stopping…'; });
    };
    TL.wireStrategyButtons(action);
    window.addEventListener('resize', function () { TL.resizeCharts(); });
  }

  /** Keeps each fill once (the history's, then the snapshots' recent ones), at most 500. */
  function addFills(list) {
    list.forEach(function (f) {
      var key = f.refId + '|' + f.at + '|' + f.amount + '|' + f.price;
      if (fillKeys[key]) return;
      fillKeys[key] = true; fills.push(f);
    });
    fills.sort(function (a, b) { return a.at - b.at; });
    while (fills.length > 500) { var old = fills.shift(); delete fillKeys[old.refId + '|' + old.at + '|' + old.amount + '|' + old.price]; }
  }

  function renderStatus(s) {
    $('environment').textContent = s.environment + ' · ' + s.venue;
    var t = s.trading;
    var badge = $('trading-state');
    var causes = t.causes || [];
    var lifts = function (how) { return causes.some(function (c) { return c.lift === how; }); };
    badge.textContent = s.journalFailure ? 'JOURNAL FAILED: ' + s.journalFailure : t.state === 'running' ? 'RUNNING' : t.state === 'halted' ? 'HALTED: ' + t.reason : 'KILL SWITCH: ' + t.reason;
    badge.className = 'badge ' + (s.journalFailure ? 'stopped' : t.state);
    $('btn-halt').hidden = causes.some(function (c) { return c.kind === 'operator'; });
    $('btn-resume').hidden = !lifts('resume');
    $('btn-resume-kill').hidden = !lifts('kill-switch');
    $('equity').textContent = s.equityShown || '–';
    $('equity-asset').textContent = s.equityAsset || '';
    $('pnl').textContent = s.pnlShown || '–';
    $('pnl').className = 'v ' + (s.pnl && s.pnl.charAt(0) === '-' ? 'sell' : 'buy');
    $('start-equity').textContent = s.startEquityShown || '–';
    var c = s.counters || {};
    $('intents').textContent = (c.intents || 0) + ' (' + (c.approved || 0) + ' / ' + (c.denied || 0) + ')';
    $('fills-count').textContent = c.fills || 0;
    var risk = $('risk');
    risk.textContent = 'kill switch: ' + (t.state === 'running' ? 'armed' : 'halted by ' + causes.map(function (c) { return c.kind + ' (' + c.reason + (c.lift === 'restart' ? '; lifted only by a restart' : '') + ')'; }).join(', ')) + (t.allowsReducing === false ? ' (nothing new is sent, not even reducing orders)' : '');
    var denials = Object.keys(s.denials || {}).map(function (k) { return [k, s.denials[k]]; });
    fillTable('denials', denials, function (d) { return [cell(d[0], 'deny'), cell(d[1], 'num')]; }, 'no denials');
  }

  function render(s) {
    snapshot = s;
    renderStatus(s.status);
    names = s.strategies.map(function (x) { return x.name; });
    strategyMarkets = [];
    s.strategies.forEach(function (x) { x.markets.forEach(function (m) { if (strategyMarkets.indexOf(m) < 0) strategyMarkets.push(m); }); });
    fillTable('strategies', s.strategies, function (x) {
      var state = x.stopped ? 'stopped: ' + x.stopped : x.paused ? 'paused' : x.state;
      return [cell(x.name), cell(x.markets.join(', '), 'opt'), cell(state, x.stopped ? 'bad' : x.paused ? 'paused' : ''), cell(x.pnlShown, 'num'), TL.strategyButtons(x)];
    });
    fillTable('daily', (s.daily || []).slice().reverse(), function (d) { return [cell(d.date, 'keep'), cell(d.strategy), cell(d.realizedShown, 'num'), cell(d.feesShown, 'num'), cell(d.trades, 'num')]; }, 'no fills yet');
    TL.drawDaily(s.daily || [], names);
    addFills(s.orders.fills);
    var p = s.positions;
    fillTable('transfer-limits', p.transferLimits || [], function (l) { return [cell(l.limitAsset), cell(l.period), cell(l.limitShown || '', 'num'), cell(l.remainingShown, 'num')]; });
    fillTable('balances', p.balances, function (b) { return [cell(b.asset), cell(b.totalShown, 'num'), cell(b.availableShown, 'num'), cell(b.transferRemainingShown || '', 'num opt')]; });
    fillTable('positions', p.positions, function (x) { return [cell(x.strategy), cell(x.market), cell(x.positionShown, 'num'), cell(x.averageCostShown || '', 'num opt'), cell(x.pnlShown, 'num')]; }, 'flat');
    fillTable('round-trips', p.roundTrips.slice().reverse(), function (t) {
      return [cell(t.strategy), cell(t.market, 'opt'), cell(t.quantityShown, 'num'), cell(t.entryPriceShown, 'num opt'), cell(t.exitPriceShown || 'open', 'num'), cell(t.pnlShown, 'num'), cell(t.feesShown, 'num opt'), cell(t.exitReason || '')];
    }, 'no round trips yet');
    fillTable('orders', s.orders.open, function (o) { return [cell(o.refId, 'opt'), cell(o.strategy), cell(o.side, o.side), cell(o.market, 'opt'), cell(o.priceShown || o.type, 'num'), cell(o.amountShown, 'num'), cell(o.status || o.state), cell(age(o.ageMs), 'num')]; }, 'no open orders');
    fillTable('fills', s.orders.fills, function (f) {
      return [cell(time(f.at), 'keep'), cell(f.strategy || ''), cell(f.side, f.side), cell(f.market, 'opt'), cell(f.priceShown || f.price, 'num'), cell(f.amountShown || f.amount, 'num'), cell(f.feeShown || '', 'num opt'), cell(f.exitReason || '')];
    }, 'no fills yet');
    renderDecisions(s.decisions);
    var q = [];
    s.quotes.markets.forEach(function (m) { ['buy', 'sell'].forEach(function (side) { var x = m[side]; if (x) q.push([m.market, side.toUpperCase(), x.priceShown, x.timeLeftMs]); }); });
    fillTable('quotes', q, function (x) { return [cell(x[0]), cell(x[1], x[1]), cell(x[2], 'num'), cell(age(x[3]), 'num')]; }, 'no quotes held');
    fillTable('quote-executions', s.quotes.executions, function (x) { return [cell(x.refId, 'opt'), cell(x.side, x.side), cell(x.market), cell(x.state), cell(x.averagePrice || '', 'num')]; }, 'none');
    var h = s.health;
    var parts = [];
    if (h.budget) parts.push('requests: ' + h.budget.spent + ' (' + h.budget.ratePerSec + '/s budget, ' + h.budget.queued + ' queued)');
    parts.push('429s: ' + h.rateLimited);
    if (h.breaker) parts.push('circuit breaker: ' + h.breaker.state + (h.breaker.lastError ? ' (' + h.breaker.lastError + ')' : ''));
    $('health').textContent = parts.join(' · ');
    fillTable('streams', h.streams, function (x) { return [cell(x.stream), cell(age(x.ageMs), 'num' + (x.ageMs > 10000 ? ' bad' : '')), cell(x.consecutiveErrors, 'num'), cell(x.lastError || '')]; }, 'no streams');
  }

  function renderDecisions(list) {
    fillTable('decisions', list, function (d) {
      var what = d.intent === 'place-order' ? (d.side + ' ' + (d.amount || '') + ' ' + d.market + (d.price ? ' @ ' + d.price : '')) : d.intent;
      return [cell(time(d.at), 'keep'), cell(d.strategy), cell(what), cell(d.decision, 'keep' + (d.decision === 'deny' ? ' deny' : '')), cell(d.code || '', 'deny'), cell(d.reason || '', 'opt')];
    }, 'no decisions yet');
  }

  function addPoint(p) { points.push(p); if (points.length > MAX_POINTS) points.shift(); }

  function drawCharts() {
    if (points.length === 0) return;
    var xs = points.map(function (p) { return p.at / 1000; });
    TL.chart($('equity-chart'), [{}, { label: 'equity', stroke: '#4f9cf0', width: 2 }], [xs, points.map(function (p) { return p.equity == null ? null : Number(p.equity); })]);
    var pnlNames = Object.keys(points[points.length - 1].strategies || {});
    var pnlSeries = [{}, { label: 'total P&L', stroke: '#d8dee6', width: 2 }].concat(pnlNames.map(function (n) { return { label: n, stroke: TL.colour(names.length ? names : pnlNames, n) }; }));
    TL.chart($('pnl-chart'), pnlSeries, [xs, points.map(function (p) { return p.pnl == null ? null : Number(p.pnl); })].concat(pnlNames.map(function (n) { return points.map(function (p) { return p.strategies[n] == null ? null : Number(p.strategies[n]); }); })));
    TL.drawMarkets(points, fills, names, strategyMarkets);
  }

  function onEvent(name, data) {
    if (name === 'snapshot') render(data);
    else if (name === 'history') { points = data.points.slice(-MAX_POINTS); addFills(data.fills); drawCharts(); }
    else if (name === 'equity') { addPoint(data); drawCharts(); }
    else if (name === 'decision' && snapshot) { snapshot.decisions.unshift(data); snapshot.decisions.length = Math.min(snapshot.decisions.length, 30); renderDecisions(snapshot.decisions); }
  }

  function follow() {
    fetch('/api/events', { headers: { authorization: 'Bearer ' + token } }).then(function (res) {
      if (res.status === 401) { sessionStorage.removeItem('tradeloop-token'); login('the token was refused: enter the run\'s token'); return; }
      if (!res.ok) throw new Error('events: HTTP ' + res.status);
      var reader = res.body.getReader();
      var decoder = new TextDecoder();
      var buf = '';
      function pump() {
        return reader.read().then(function (r) {
          if (r.done) throw new Error('the run closed the stream');
          buf += decoder.decode(r.value, { stream: true });
          var i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            var frame = buf.slice(0, i); buf = buf.slice(i + 2);
            var ev = 'message', data = '';
            frame.split('\n').forEach(function (line) { if (line.indexOf('event: ') === 0) ev = line.slice(7); else if (line.indexOf('data: ') === 0) data += line.slice(6); });
            if (data) onEvent(ev, JSON.parse(data));
          }
          return pump();
        });
      }
      return pump();
    }).catch(function (e) {
      var badge = $('trading-state');
      badge.textContent = 'DISCONNECTED'; badge.className = 'badge stopped';
      say(e.message + ': reconnecting…', true);
      setTimeout(follow, 2000);
    });
  }

  function login(text) {
    $('board').hidden = true; $('login').hidden = false;
    if (text) say(text, true);
    $('token-go').onclick = function () { sessionStorage.setItem('tradeloop-token', $('token-input').value.trim()); location.reload(); };
  }

  token = readToken();
  if (!token) { login(); return; }
  wire();
  follow();
  TL.followCharts(token, drawCharts);
  TL.followLog(token);
  TL.showConfig(token);
})();
`;
