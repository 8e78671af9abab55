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
  main { display:grid; grid-template-columns:repeat(auto-fit, minmax(420px, 1fr)); gap:12px; padding:12px 16px; }
  section { background:var(--panel); border:1px solid var(--line); border-radius:6px; padding:10px 12px; overflow:auto; max-height:420px; }
  section.wide { grid-column:1 / -1; max-height:none; }
  h2 { font-size:13px; text-transform:uppercase; letter-spacing:.04em; color:var(--dim); margin:0 0 8px; }
  table { border-collapse:collapse; width:100%; font-variant-numeric:tabular-nums; }
  th, td { text-align:left; padding:3px 6px; border-bottom:1px solid var(--line); white-space:nowrap; }
  th { color:var(--dim); font-weight:500; } td.num, th.num { text-align:right; }
  .BUY, .buy { color:var(--buy); } .SELL, .sell { color:var(--sell); } .deny { color:var(--warn); } .bad { color:var(--sell); }
  .figures { display:flex; gap:24px; flex-wrap:wrap; } .figure .v { font-size:20px; font-weight:600; } .figure .l { color:var(--dim); }
  .empty { color:var(--dim); }
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
    <div id="equity-chart"></div><div id="pnl-chart"></div>
  </section>
  <section class="wide"><h2>Price and fills <span id="price-market"></span></h2><div id="price-chart"></div></section>
  <section><h2>Strategies</h2><table id="strategies"><thead><tr><th>strategy</th><th>markets</th><th>state</th><th class="num">P&amp;L</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Balances</h2><table id="balances"><thead><tr><th>asset</th><th class="num">total</th><th class="num">available</th><th class="num">transfers left</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Transfer limits</h2><table id="transfer-limits"><thead><tr><th>asset</th><th>period</th><th class="num">limit</th><th class="num">left (as read)</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Positions</h2><table id="positions"><thead><tr><th>strategy</th><th>market</th><th class="num">held</th><th class="num">avg cost</th><th class="num">P&amp;L</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Open orders</h2><table id="orders"><thead><tr><th>ref</th><th>strategy</th><th>side</th><th>market</th><th class="num">price</th><th class="num">amount</th><th>status</th><th class="num">age</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Recent fills</h2><table id="fills"><thead><tr><th>time</th><th>side</th><th>market</th><th class="num">price</th><th class="num">amount</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Round trips</h2><table id="round-trips"><thead><tr><th>strategy</th><th>market</th><th class="num">qty</th><th class="num">entry</th><th class="num">exit</th><th class="num">P&amp;L</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Risk decisions</h2><table id="decisions"><thead><tr><th>time</th><th>strategy</th><th>intent</th><th>decision</th><th>code</th><th>reason</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Risk</h2><div id="risk"></div><table id="denials"><thead><tr><th>code</th><th class="num">count</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Quotes</h2><table id="quotes"><thead><tr><th>market</th><th>side</th><th class="num">price</th><th class="num">time left</th></tr></thead><tbody></tbody></table>
    <h2 style="margin-top:10px">Quote executions</h2><table id="quote-executions"><thead><tr><th>ref</th><th>side</th><th>market</th><th>state</th><th class="num">price</th></tr></thead><tbody></tbody></table></section>
  <section><h2>Stream health</h2><div id="health"></div><table id="streams"><thead><tr><th>stream</th><th class="num">age</th><th class="num">errors</th><th>last error</th></tr></thead><tbody></tbody></table></section>
</main>
<script src="/assets/uplot.js"></script>
<script src="/assets/app.js"></script>
</body>
</html>
`;
