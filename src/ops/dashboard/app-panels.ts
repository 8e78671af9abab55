/**
 * The dashboard's views that read on their own and its per-strategy buttons, plain browser
 * JavaScript served as /assets/panels.js (before app.js, which starts them with its token and its
 * action helper): the log's last lines at a chosen level (GET /api/log, every few seconds), the run's
 * config (GET /api/config, secrets hidden by the server), and Exit, Pause and Resume per strategy,
 * each asking for confirmation and pressing the control API's action with the bearer token.
 */
export const PANELS_SCRIPT = String.raw`'use strict';
(function () {
  var TL = window.TL = window.TL || {};
  var $ = function (id) { return document.getElementById(id); };

  function get(token, path) {
    return fetch(path, { headers: { authorization: 'Bearer ' + token } }).then(function (res) {
      if (!res.ok) throw new Error(path + ': HTTP ' + res.status);
      return res.json();
    });
  }

  function showLog(records) {
    var el = $('log-lines');
    el.textContent = '';
    if (records.length === 0) { el.textContent = 'no log lines at this level'; el.className = 'empty'; return; }
    el.className = '';
    records.forEach(function (r) {
      var line = document.createElement('div'); line.className = r.level;
      line.textContent = new Date(r.at).toLocaleTimeString() + ' ' + r.level.toUpperCase() + (r.component ? ' [' + r.component + ']' : '') + ' ' + r.msg + (r.err ? ': ' + r.err : '');
      el.appendChild(line);
    });
  }

  /** Follows the log at the level chosen (read again every 3 s, and at once when the level changes). */
  TL.followLog = function (token) {
    var timer = null;
    function read() {
      clearTimeout(timer);
      get(token, '/api/log?level=' + encodeURIComponent($('log-level').value))
        .then(function (b) { showLog(b.records.slice(0, 200)); })
        .catch(function (e) { $('log-lines').textContent = e.message; })
        .then(function () { timer = setTimeout(read, 3000); });
    }
    $('log-level').onchange = read;
    read();
  };

  TL.showConfig = function (token) {
    get(token, '/api/config').then(function (c) { $('config').textContent = JSON.stringify(c, null, 2); })
      .catch(function (e) { $('config').textContent = e.message; });
  };

  /** The buttons of one strategy's row: Exit, and Pause or Resume by its state. */
  TL.strategyButtons = function (s) {
    var td = document.createElement('td'); td.className = 'act';
    function button(act, text, title) {
      var b = document.createElement('button'); b.textContent = text; b.title = title;
      b.setAttribute('data-act', act); b.setAttribute('data-strategy', s.name); td.appendChild(b);
    }
    button('exit', 'Exit', 'sell ' + s.name + '\'s own position at market, through the risk gate');
    if (s.state === 'paused') button('resume', 'Resume', 'let ' + s.name + '\'s new intents pass again');
    else button('pause', 'Pause', 'deny ' + s.name + '\'s new intents (its open orders and position stay)');
    return td;
  };

  var ASK = {
    exit: function (n) { return 'Exit ' + n + '? Its own position is sold at market (other strategies keep theirs).'; },
    pause: function (n) { return 'Pause ' + n + '? Its new intents are denied until resumed; its open orders and position stay.'; },
    resume: function (n) { return 'Resume ' + n + '? Its new intents pass the risk gate again.'; },
  };

  function exitDone(b) {
    return 'exit ' + b.strategy + ': ' + (b.exits || []).map(function (e) { return e.market + ' ' + (e.note || (e.amount + ' ' + (e.outcome || ''))); }).join('; ');
  }

  /** One click handler for the strategies table: each button asks, then presses its action. */
  TL.wireStrategyButtons = function (action) {
    $('strategies').onclick = function (ev) {
      var b = ev.target.closest && ev.target.closest('button[data-act]');
      if (!b) return;
      var act = b.getAttribute('data-act'), name = b.getAttribute('data-strategy');
      if (!confirm(ASK[act](name))) return;
      if (act === 'exit') action('exit', { strategy: name }, exitDone);
      else if (act === 'pause') action('pause', { strategy: name, reason: 'from the dashboard' }, function () { return name + ' paused: its new intents are denied'; });
      else action('resume', { strategy: name }, function (r) { return r.message || name + ' resumed'; });
    };
  };
})();
`;
