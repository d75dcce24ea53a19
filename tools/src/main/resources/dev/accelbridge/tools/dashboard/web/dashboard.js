/*
 * The Accelbridge dashboard: views over the JSON API (docs/dashboard.md). Charts are drawn by views.js, the same
 * script the static report inlines. The server's token, when the page was opened with ?token=, goes with every request.
 */
(function () {
  'use strict';
  var D = window.AccelbridgeDashboard;
  var V = D.V, esc = D.esc, token = D.token, state = D.state, $ = D.$, api = D.api, showError = D.showError,
    clearError = D.clearError, ms = D.ms, text = D.text, changeText = D.changeText, caseHref = D.caseHref, qs = D.qs;

  // ---- routing -------------------------------------------------------------------------------------------------
  function route() {
    clearError();
    var h = location.hash.replace(/^#/, '') || 'matrix';
    var parts = h.split('/');
    var view = parts[0];
    document.querySelectorAll('.view').forEach(function (s) { s.hidden = true; });
    document.querySelectorAll('nav a').forEach(function (a) { a.classList.toggle('active', a.dataset.view === view); });
    var section = $('view-' + view) || $('view-matrix');
    section.hidden = false;
    if (view === 'case') { D.showCase(decodeURIComponent(parts[1]), decodeURIComponent(parts.slice(2).join('/'))); }
    else if (view === 'compare') { compareChoices(); }
    else if (view === 'live') { refreshLaunch(); }
    else if (view === 'run') { runForm(); }
    else if (view === 'recommendations') { recommendations(); }
    else { loadMatrix(); }
  }

  // ---- matrix explorer -----------------------------------------------------------------------------------------
  function filterValues() {
    var f = $('filters');
    var o = { run: f.run.value, from: f.from.value, to: f.to.value };
    facetNames().forEach(function (k) { var s = f.querySelector('[name="' + k + '"]'); if (s) { o[k] = s.value; } });
    return o;
  }
  // the facets are the server's (its matrix dimensions, then host and status), in the order it sends them
  function facetNames() { return state.matrix ? Object.keys(state.matrix.facets) : []; }
  function facetSelects(facets) {
    var holder = $('facet-selects');
    var keep = {};
    facetNames().forEach(function (k) { var s = holder.querySelector('[name="' + k + '"]'); if (s) { keep[k] = s.value; } });
    holder.innerHTML = Object.keys(facets).map(function (k) {
      var opts = (facets[k] || []).map(function (v) {
        return '<option value="' + esc(v) + '"' + (keep[k] === v ? ' selected' : '') + '>' + esc(v) + '</option>'; }).join('');
      return '<label>' + k + ' <select name="' + k + '" data-facet="' + k + '"><option value="">any</option>' + opts + '</select></label>';
    }).join('');
  }
  function loadMatrix() {
    var f = filterValues();
    var q = Object.assign({}, f); delete q.group;
    return api('/api/matrix' + qs(q)).then(function (m) {
      state.matrix = m;
      facetSelects(m.facets);
      drawMatrix(m.cells);
    }).catch(showError);
  }
  function drawMatrix(cells) {
    $('matrix-summary').textContent = cells.length + ' cell(s) · scope: ' + state.matrix.scope;
    var open = function (c) { location.hash = caseHref(c.runId, c.key); };
    // the first screen comes made (and escaped) by the server, from the reports' own code
    $('overview-box').innerHTML = state.matrix.overview || '';
    V.grid($('grid'), cells, { onCell: open });
    V.ratio($('ratio'), cells, { onCell: open });
    V.generation($('ttft'), cells, { which: 'ttft', onCell: open });
    V.generation($('tps'), cells, { which: 'tokensPerSec', onCell: open });
    V.history($('history'), cells);
    var group = $('f-group').value;
    var groups = {};
    var order = [];
    cells.forEach(function (c) { var g = String(c[group]); if (!groups[g]) { groups[g] = []; order.push(g); } groups[g].push(c); });
    var html = '';
    order.forEach(function (g) {
      html += '<tr class="group"><th colspan="9">' + esc(group) + ': ' + esc(g) + ' (' + groups[g].length + ')</th></tr>';
      groups[g].forEach(function (c) {
        html += '<tr data-key="' + esc(c.key) + '"' + (c.regression ? ' class="regression"' : '') + '><td><a href="'
          + caseHref(c.runId, c.key) + '">' + esc(c.row) + '</a></td><td>' + esc(c.col) + '</td><td>' + esc(c.host)
          + '</td><td class="' + esc(c.status) + '">' + esc(c.status) + (c.caveat ? ' <span class="sw">' + esc(c.caveat) + '</span>' : '')
          + '</td><td>' + c.score + ' ' + esc(c.grade) + '</td><td>' + text(c.actual) + '</td><td>' + ms(c.p50) + '</td><td class="'
          + (c.vsNative > 1 ? 'slower' : c.vsNative > 0 ? 'faster' : '') + '">' + esc(c.vsNativeLabel || '–') + '</td><td>'
          + esc(changeText(c.change, c.changePercent)) + '</td></tr>';
      });
    });
    document.querySelector('#cells tbody').innerHTML = html;
  }

  // ---- compare -------------------------------------------------------------------------------------------------
  function compareChoices() {
    var by = $('c-by').value;
    $('c-run-label').hidden = by === 'run';
    var fill = function (values, labels) {
      ['c-a', 'c-b'].forEach(function (id, i) {
        var s = $(id), keep = s.value;
        s.innerHTML = values.map(function (v, j) { return '<option value="' + esc(v) + '">' + esc(labels[j]) + '</option>'; }).join('');
        if (values.indexOf(keep) >= 0) { s.value = keep; } else if (values.length > i) { s.selectedIndex = Math.min(i, values.length - 1); }
      });
    };
    if (by === 'run') {
      fill(state.runs.map(function (r) { return r.runId; }), state.runs.map(function (r) { return r.runId + ' · ' + r.startedAt + ' · ' + (r.host || ''); }));
      return Promise.resolve();
    }
    return api('/api/matrix' + qs({ run: $('c-run').value })).then(function (m) {
      var vs = m.facets[by] || [];
      fill(vs, vs);
    }).catch(showError);
  }
  function compare(ev) {
    if (ev) { ev.preventDefault(); }
    var f = $('compare-form');
    return api('/api/compare' + qs({ by: f.by.value, a: f.a.value, b: f.b.value, run: f.by.value === 'run' ? '' : f.run.value }))
      .then(function (c) {
        document.querySelector('#compare-table tbody').innerHTML = c.rows.map(function (r) {
          var cls = typeof r.ratio === 'number' ? (r.ratio > 1 ? 'slower' : 'faster') : '';
          return '<tr><td>' + esc(r.label) + '</td><td class="' + esc(r.a.status) + '">' + esc(r.a.status) + '</td><td>' + ms(r.a.p50)
            + '</td><td class="' + esc(r.b.status) + '">' + esc(r.b.status) + '</td><td>' + ms(r.b.p50) + '</td><td class="ratio ' + cls
            + '">' + esc(r.ratioLabel || '–') + '</td></tr>'; }).join('') || '<tr><td colspan="6">no cases on either side</td></tr>';
      }).catch(showError);
  }

  // ---- live ----------------------------------------------------------------------------------------------------
  function runCard(p) {
    var id = 'live-run-' + p.runId.replace(/[^A-Za-z0-9_-]/g, '_');
    var card = $(id);
    if (!card) {
      card = document.createElement('div');
      card.id = id; card.className = 'run-card'; card.dataset.run = p.runId;
      $('live-runs').prepend(card);
    }
    $('live-none').hidden = true;
    var total = typeof p.total === 'number' ? p.total : null;
    card.innerHTML = '<b>run ' + esc(p.runId) + '</b> · <span class="run-status">' + esc(p.status) + '</span> · <span class="run-count">'
      + p.done + (total !== null ? ' of ' + total : '') + '</span> cases<br><progress max="' + (total || Math.max(p.done, 1)) + '" value="'
      + p.done + '"></progress><table class="lanes"><tr><th>lane</th><th>state</th><th>done</th><th>by status</th><th>now</th></tr>'
      + p.lanes.map(function (l) {
        return '<tr data-lane="' + esc(l.lane) + '"><td>' + esc(l.lane) + '</td><td>' + esc(l.state) + '</td><td>' + l.done
          + (l.total !== null ? ' / ' + l.total : '') + '</td><td>' + Object.keys(l.byStatus).map(function (s) {
            return '<span class="' + esc(s) + '">' + esc(s) + ' ' + l.byStatus[s] + '</span>'; }).join(' · ') + '</td><td class="now">'
          + (l.now ? esc(l.now) : '') + '</td></tr>';
      }).join('') + '</table>';
    var running = document.querySelectorAll('.run-card .run-status');
    var n = Array.prototype.filter.call(running, function (s) { return s.textContent === 'running'; }).length;
    $('live-badge').hidden = n === 0; $('live-badge').textContent = n;
    var known = state.runs.some(function (r) { return r.runId === p.runId && r.status === p.status; });
    if (!known) { refreshRuns(); }
    if (!$('view-live').hidden) { refreshLaunch(); }
  }
  function liveCase(c) {
    var k = c.runId + '|' + c.caseKey;
    if (state.liveCases[k]) { return; }
    state.liveCases[k] = true;
    var li = document.createElement('li');
    li.dataset.key = c.caseKey;
    li.innerHTML = '<a href="' + caseHref(c.runId, c.caseKey) + '">' + esc(c.suite + '/' + c.model) + ' · ' + esc(c.requested)
      + ' [' + esc(c.lane) + ']</a> <span class="' + esc(c.status) + '">' + esc(c.status) + '</span> p50 ' + ms(c.p50Ms) + ' ms';
    $('live-cases').prepend(li);
  }
  function connectLive() {
    var es = new EventSource('/api/live' + qs({ token: token }));
    es.addEventListener('progress', function (e) { runCard(JSON.parse(e.data)); });
    es.addEventListener('case', function (e) { liveCase(JSON.parse(e.data)); });
    state.liveSource = es;
  }
  function refreshLaunch() {
    return api('/api/launch').then(function (s) {
      $('launch-log').textContent = s.state === 'idle' ? 'none yet' : s.state + (s.exitCode !== undefined ? ' (exit ' + s.exitCode + ')' : '')
        + ': accelbridge run ' + (s.args || []).join(' ') + '\n\n' + (s.logTail || '');
    }).catch(showError);
  }

  // ---- start a run ---------------------------------------------------------------------------------------------
  function checks(id, name, values, checked) {
    $(id).innerHTML = values.map(function (v) {
      return '<label><input type="checkbox" name="' + name + '" value="' + esc(v) + '"' + (checked.indexOf(v) >= 0 ? ' checked' : '')
        + '> ' + esc(v) + '</label>'; }).join('');
  }
  function runForm() {
    if (state.options) { return; }
    api('/api/options').then(function (o) {
      state.options = o;
      checks('rf-suites', 'suites', o.suites, o.defaultSuites || o.suites);
      checks('rf-backends', 'backends', o.backends, ['webgpu', 'wasm', 'cpu']);
      checks('rf-browsers', 'browsers', o.browsers, ['chromium']);
      checks('rf-precisions', 'precisions', o.precisions, ['fp32']);
    }).catch(showError);
  }
  function submitRun(ev) {
    ev.preventDefault();
    var f = $('run-form');
    function all(name) { return Array.prototype.map.call(f.querySelectorAll('input[name="' + name + '"]:checked'), function (x) { return x.value; }); }
    var body = {};
    var msg = $('run-message');
    if (f.groups.value.trim()) {
      try { body = JSON.parse(f.groups.value); } catch (e) { msg.className = 'error'; msg.textContent = 'The options are not JSON: ' + e.message; return; }
    }
    var fields = { suites: all('suites'), backends: all('backends'), browsers: all('browsers'), precisions: all('precisions'),
      models: f.models.value.split('\n').map(function (s) { return s.trim(); }).filter(Boolean),
      batchSizes: f.batchSizes.value, iterations: f.iterations.value, warmups: f.warmups.value, samplingDepth: f.samplingDepth.value,
      ortWeb: f.ortWeb.value, ort: f.ort.value };
    Object.keys(fields).forEach(function (k) { body[k] = fields[k]; });
    msg.textContent = 'starting…';
    api('/api/runs', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      .then(function (s) {
        msg.className = 'ok';
        msg.textContent = 'Started: accelbridge run ' + (s.args || []).join(' ') + ' (pid ' + s.pid + '). Its cases stream into Live.';
        location.hash = '#live';
      }).catch(function (e) { msg.className = 'error'; msg.textContent = (e.status === 409 ? 'Refused: ' : '') + e.message; });
  }

  // ---- recommendations -----------------------------------------------------------------------------------------
  function recommendations() {
    api('/api/recommendations').then(function (rs) {
      document.querySelector('#recommendations tbody').innerHTML = rs.map(function (r) {
        var b = r.best, u = r.runnerUp;
        var opt = function (o) { return o ? esc(o.backend) + ' [' + esc(o.browser || 'native') + ']' : '–'; };
        return '<tr><td>' + esc(r.host) + '</td><td>' + esc(r.family) + (r.model ? '/' + esc(r.model) : '') + '</td><td>'
          + esc(r.precision) + '</td><td>' + esc(r.target) + '</td><td>' + opt(b) + '</td><td>' + (b ? ms(b.p50Ms) : '–') + '</td><td>'
          + (b ? esc(b.vsNativeCpu) : '–') + '</td><td>' + opt(u) + '</td><td>'
          + esc(r.note || '') + '</td></tr>'; }).join('') || '<tr><td colspan="9">no passing case in the store yet</td></tr>';
    }).catch(showError);
  }

  // ---- start ---------------------------------------------------------------------------------------------------
  function refreshRuns() {
    return api('/api/runs').then(function (runs) {
      state.runs = runs;
      ['f-run', 'c-run'].forEach(function (id) {
        var s = $(id), keep = s.value;
        s.innerHTML = '<option value="">newest result of every cell</option>' + runs.map(function (r) {
          return '<option value="' + esc(r.runId) + '">' + esc(r.runId) + ' · ' + esc(r.startedAt.slice(0, 19)) + ' · ' + esc(r.status)
            + ' · ' + r.results + ' cases' + (r.label ? ' · ' + esc(r.origin) + ' ' + esc(r.label) : '') + '</option>'; }).join('');
        s.value = keep;
      });
      $('store-note').textContent = runs.length + ' run(s) in the store';
    }).catch(showError);
  }
  $('filters').addEventListener('change', function (e) {
    if (e.target.name === 'group' && state.matrix) { drawMatrix(state.matrix.cells); } else { loadMatrix(); }
  });
  $('filters').addEventListener('reset', function () { setTimeout(loadMatrix, 0); });
  $('c-by').addEventListener('change', compareChoices);
  $('c-run').addEventListener('change', compareChoices);
  $('compare-form').addEventListener('submit', compare);
  $('run-form').addEventListener('submit', submitRun);
  window.addEventListener('hashchange', route);
  window.addEventListener('resize', function () {
    document.querySelectorAll('.chart').forEach(function (el) { var c = echarts.getInstanceByDom(el); if (c) { c.resize(); } });
  });
  refreshRuns().then(function () { route(); connectLive(); window.accelbridgeDashboardReady = true; });
})();
