/**
 * The dashboard's HTML: a static shell with no data in it (the data comes through the token-guarded
 * event stream), its styles inline, its script and uPlot served from this server (no build step, no
 * CDN). Element ids are what the script fills and what the browser test reads.
 */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>tradeloop</title>
<link rel="stylesheet" href="/assets/uplot.css">
<style>
  :root { --bg:#0f1419; --panel:#171d24; --line:#2a323c; --text:#d8dee6; --dim:#8a96a3; --buy:#2fb171; --sell:#e5534b; --warn:#d9a400; }
  * { box-sizing: border-box; }
  body { margin:0; font:13px/1.4 system-ui, -apple-system, Segoe UI, sans-serif; background:var(--bg); color:var(--text); }
  header { display:flex; flex-wrap:wrap; gap:12px; align-items:center; padding:10px 16px; border-bottom:1px solid var(--line); position:sticky; top:0; background:var(--bg); z-index:2; }
  header h1 { font-size:16px; margin:0 8px 0 0; }
  .badge { padding:2px 8px; border-radius:10px; font-weight:600; background:var(--line); }
  .badge.running { background:#1d4d35; } .badge.halted { background:#5a4a00; } .badge.kill-switch, .badge.stopped { background:#6b1f1b; }
  button { background:#24303c; color:var(--text); border:1px solid var(--line); border-radius:4px; padding:5px 10px; cursor:pointer; font:inherit; }
  button:hover { background:#2d3b49; } button.danger { border-color:#7a2d28; } button[hidden] { display:none; }
  #message { color:var(--dim); min-height:1em; }
  main { display:grid; grid-template-columns:repeat(auto-fill, minmax(min(100%, 540px), 1fr)); gap:12px; padding:12px 16px; }
  section { background:var(--panel); border:1px solid var(--line); border-radius:6px; padding:10px 12px; overflow:auto; max-height:440px; min-width:0; }
  section.wide { grid-column:1 / -1; max-height:none; }
  h2 { font-size:13px; text-transform:uppercase; letter-spacing:.04em; color:var(--dim); margin:0 0 8px; }
  h3 { font-size:12px; color:var(--dim); margin:4px 0; font-weight:500; }
  table { border-collapse:collapse; width:100%; font-variant-numeric:tabular-nums; }
  thead th { position:sticky; top:-10px; background:var(--panel); z-index:1; }
  th, td { text-align:left; padding:3px 6px; border-bottom:1px solid var(--line); overflow-wrap:anywhere; vertical-align:top; }
  th { color:var(--dim); font-weight:500; overflow-wrap:normal; }
  select { background:#24303c; color:var(--text); border:1px solid var(--line); border-radius:4px; font:inherit; text-transform:none; } td.num, th.num { text-align:right; white-space:nowrap; overflow-wrap:normal; }
  td.keep { white-space:nowrap; overflow-wrap:normal; }
  .BUY, .buy { color:var(--buy); } .SELL, .sell { color:var(--sell); } .deny { color:var(--warn); } .bad { color:var(--sell); } .paused { color:var(--warn); }
  .figures { display:flex; gap:24px; flex-wrap:wrap; } .figure .v { font-size:20px; font-weight:600; } .figure .l { color:var(--dim); }
  .empty { color:var(--dim); }
  .charts { display:grid; grid-template-columns:repeat(auto-fill, minmax(min(100%, 460px), 1fr)); gap:12px; }
  .chart { min-width:0; overflow:hidden; }
  .u-legend { white-space:normal; } .u-legend .u-series { display:inline-block; }
  td.act { white-space:nowrap; } td.act button { padding:2px 6px; margin:0 2px 2px 0; }
  .daily-row { display:grid; grid-template-columns:88px 1fr; gap:6px; align-items:center; margin:2px 0; }
  .daily-bars .bar { height:8px; border-radius:2px; margin:1px 0; min-width:1px; }
  .daily-bars .bar.neg { opacity:.55; }
  .legend span { display:inline-block; margin-right:12px; } .legend i { display:inline-block; width:10px; height:10px; border-radius:2px; margin-right:4px; vertical-align:middle; }
  #log-lines { font:12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; white-space:pre-wrap; overflow-wrap:anywhere; }
  #log-lines .warn { color:var(--warn); } #log-lines .error, #log-lines .fatal { color:var(--sell); }
  #config { font:12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; white-space:pre-wrap; overflow-wrap:anywhere; margin:0; }
  @media (max-width: 640px) {
    main { padding:8px; gap:8px; } section { padding:8px; } header { padding:8px; gap:8px; }
    table { font-size:12px; } th, td { padding:3px 3px; } th { overflow-wrap:anywhere; } .opt { display:none; } .figures { gap:12px; } .figure .v { font-size:16px; }
    #login input { width:100%; }
  }
  #login { padding:40px; } #login input { width:380px; padding:6px; font:inherit; }
</style>
</head>
<body>
<header>
  <h1>tradeloop</h1>
  <span id="environment" class="badge"></span>
  <span id="trading-state" class="badge">connecting…</span>
  <button id="btn-halt" title="stop new intents (open orders stay)">Halt</button>
  <button id="btn-resume" title="lift an operator's halt" hidden>Resume</button>
  <button id="btn-resume-kill" class="danger" title="lift a kill-switch trip" hidden>Resume kill switch</button>
  <button id="btn-cancel-all" class="danger" title="cancel every open order at the venue">Cancel all</button>
  <button id="btn-stop" class="danger" title="exit cleanly, as Ctrl-C does">Stop</button>
  <span id="message" role="status"></span>
</header>
<div id="login" hidden>
  <p>This dashboard needs the run's token: the one printed with its URL, or TRADELOOP_UI_TOKEN.</p>
  <input id="token-input" type="password" placeholder="token" autocomplete="off"> <button id="token-go">Open</button>
</div>
<main id="board">
  <section class="wide"><h2>Equity and P&amp;L</h2>
    <div class="figures">
      <div class="figure"><div class="v" id="equity">–</div><div class="l">equity <span id="equity-asset"></span></div></div>
      <div class="figure"><div class="v" id="pnl">–</div><div class="l">P&amp;L since start</div></div>
      <div class="figure"><div class="v" id="start-equity">–</div><div class="l">start equity</div></div>
      <div class="figure"><div class="v" id="intents">0</div><div class="l">intents (approved / denied)</div></div>
      <div class="figure"><div class="v" id="fills-count">0</div><div class="l">fills</div></div>
    </div>
    <div class="charts"><div id="equity-chart" class="chart"></div><div id="pnl-chart" class="chart"></div></div>
  </section>
  <section class="wide"><h2>Prices and fills by strategy</h2><div id="price-legend" class="legend"></div><div id="price-charts" class="charts"></div></section>
  <section><h2>Strategies</h2><table id="strategies"><thead><tr><th>strategy</th><th class="opt">markets</th><th>state</th><th class="num">P&amp;L</th><th>actions</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Daily P&amp;L (UTC, realized)</h2><div id="daily-legend" class="legend"></div><div id="daily-chart" class="daily-bars"></div>
    <table id="daily"><thead><tr><th>day</th><th>strategy</th><th class="num">realized</th><th class="num">fees</th><th class="num">fills</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Positions</h2><table id="positions"><thead><tr><th>strategy</th><th>market</th><th class="num">held</th><th class="num opt">avg cost</th><th class="num">P&amp;L</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Open orders</h2><table id="orders"><thead><tr><th class="opt">ref</th><th>strategy</th><th>side</th><th class="opt">market</th><th class="num">price</th><th class="num">amount</th><th>status</th><th class="num">age</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Recent fills</h2><table id="fills"><thead><tr><th>time</th><th>strategy</th><th>side</th><th class="opt">market</th><th class="num">price</th><th class="num">amount</th><th class="num opt">fee</th><th>exit</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Round trips</h2><table id="round-trips"><thead><tr><th>strategy</th><th class="opt">market</th><th class="num">qty</th><th class="num opt">entry</th><th class="num">exit</th><th class="num">P&amp;L</th><th class="num opt">fees</th><th>reason</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Risk decisions</h2><table id="decisions"><thead><tr><th>time</th><th>strategy</th><th>intent</th><th>decision</th><th>code</th><th class="opt">reason</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Risk</h2><div id="risk"></div><table id="denials"><thead><tr><th>code</th><th class="num">count</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Balances</h2><table id="balances"><thead><tr><th>asset</th><th class="num">total</th><th class="num">available</th><th class="num opt">transfers left</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Transfer limits</h2><table id="transfer-limits"><thead><tr><th>asset</th><th>period</th><th class="num">limit</th><th class="num">left (as read)</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Quotes</h2><table id="quotes"><thead><tr><th>market</th><th>side</th><th class="num">price</th><th class="num">time left</th></tr></thead><tbody></tbody></table>
    <h2 style="margin-top:10px">Quote executions</h2><table id="quote-executions"><thead><tr><th class="opt">ref</th><th>side</th><th>market</th><th>state</th><th class="num">price</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Stream health</h2><div id="health"></div><table id="streams"><thead><tr><th>stream</th><th class="num">age</th><th class="num">errors</th><th>last error</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Log <select id="log-level" aria-label="lowest level shown"><option>debug</option><option selected>info</option><option>warn</option><option>error</option></select></h2><div id="log-lines"></div></section>
  <section><h2>Config (secrets hidden)</h2><pre id="config"></pre></section>
</main>
<script src="/assets/uplot.js"></script>
<script src="/assets/markets.js"></script>
<script src="/assets/panels.js"></script>
<script src="/assets/app.js"></script>
</body>
</html>
`;
