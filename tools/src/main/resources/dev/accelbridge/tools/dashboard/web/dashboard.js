/*
 * The Accelbridge dashboard: views over the JSON API (docs/dashboard.md). Charts are drawn by views.js, the same
 * script the static report inlines. The server's token, when the page was opened with ?token=, goes with every request.
 */
(function () {
  'use strict';
  var V = window.AccelbridgeViews;
  var esc = V.esc;
  var token = new URLSearchParams(location.search).get('token');
  var state = { runs: [], options: null, matrix: null, liveCases: {}, liveSource: null };

  function $(id) { return document.getElementById(id); }
  function api(path, init) {
    init = init || {};
    init.headers = Object.assign({}, init.headers || {}, token ? { Authorization: 'Bearer ' + token } : {});
    return fetch(path, init).then(function (r) {
      return r.text().then(function (t) {
        var body = t ? JSON.parse(t) : null;
        if (!r.ok) {
          var e = new Error(body && body.error ? body.error + (body.fix ? ' — ' + body.fix : '') : r.status + ' ' + t);
          e.status = r.status; e.body = body; throw e;
        }
        return body;
      });
    });
  }
  function showError(e) { var el = $('error'); el.textContent = String(e.message || e); el.hidden = false; }
  function clearError() { $('error').hidden = true; }
  function ms(v) { return typeof v === 'number' ? V.fmtMs(v) : '–'; }
  function text(v) {
    if (v === null || v === undefined || v === '') { return '–'; }
    return typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(4)).toString() : String(v);
  }
  function rowsInto(table, rows) {
    table.innerHTML = rows.map(function (r) { return '<tr><th>' + esc(r[0]) + '</th><td>' + r[1] + '</td></tr>'; }).join('');
  }
  /** "regression +25.0 %", "improvement −12 %", "unchanged", "" when there are too few earlier runs to judge. */
  function changeText(kind, pct) {
    if (kind === 'REGRESSION' || kind === 'IMPROVEMENT') { return kind.toLowerCase() + ' ' + (pct || ''); }
    return kind === 'UNCHANGED' ? 'within noise' : '';
  }
  function caseHref(runId, key) { return '#case/' + encodeURIComponent(runId) + '/' + encodeURIComponent(key); }
  function qs(obj) {
    var p = new URLSearchParams();
    Object.keys(obj).forEach(function (k) { if (obj[k] !== '' && obj[k] !== null && obj[k] !== undefined) { p.set(k, obj[k]); } });
    var s = p.toString();
    return s ? '?' + s : '';
  }

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
    if (view === 'case') { showCase(decodeURIComponent(parts[1]), decodeURIComponent(parts.slice(2).join('/'))); }
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

  // ---- case drill-down -----------------------------------------------------------------------------------------
  // A generation's own figures, as the result's JSON form gives them (docs/generation.md).
  function generationRows(g) {
    if (!g) { return []; }
    var ci = function (a) { return a ? ' [' + ms(a[0]) + ' – ' + ms(a[1]) + ']' : ''; };
    return [
      ['generation', 'greedy ' + g.newTokens + ' tokens after ' + g.promptTokens],
      ['TTFT p50 (ms)', ms(g.ttftP50Ms) + ci(g.ttftCiMs)],
      ['inter-token p50 / p90 (ms)', ms(g.itlP50Ms) + ' / ' + ms(g.itlP90Ms)],
      ['tokens per second', ms(g.tokensPerSec) + ci(g.tokensPerSecCi)],
      ['cold generation: TTFT / whole (ms)', ms(g.coldTtftMs) + ' / ' + ms(g.coldTotalMs)],
      ['KV cache at the end (bytes)', esc(text(g.kvCacheBytes))],
      ['tokens', tokensChecked(g)]];
  }

  // What the tokens were checked against, in the words the reports use: verified (the native CPU reference), repeated
  // (the reference itself, each generation against its first: verifies nothing), not checked.
  function tokensChecked(g) {
    if (!g.generations || !g.tokensChecked || g.tokensChecked === 'none') { return 'not checked'; }
    var all = g.verified === g.generations;
    var of = ' ' + g.verified + ' of ' + g.generations + ' generations';
    return g.tokensChecked === 'reference' ? (all ? 'verified' : 'not verified') + of + ' (against the native CPU reference)'
      : (all ? 'repeated' : 'not repeated') + of + ' (the reference, against its own first generation)';
  }

  function showCase(runId, key) {
    api('/api/case' + qs({ run: runId, key: key })).then(function (d) {
      var r = d.result;
      $('case-title').textContent = d.cell.row + ' · ' + d.cell.col + ' on ' + d.cell.host;
      $('case-status').innerHTML = '<span class="' + esc(r.status) + '">' + esc(r.status) + '</span> · ran on '
        + esc(text(r.actual)) + ' · run ' + esc(r.runId) + (r.reason ? '<br>' + esc(r.reason) : '');
      var cs = r.coldStart || {};
      rowsInto($('case-timings'), [
        ['model load (ms)', ms(r.loadMs)], ['first inference (ms)', ms(r.firstMs)],
        ['warm p50 / p90 / p99 (ms)', ms(r.p50Ms) + ' / ' + ms(r.p90Ms) + ' / ' + ms(r.p99Ms)
          + (r.samplesNeeded ? ' (' + Object.keys(r.samplesNeeded).map(function (k) { return k + ' needs ' + r.samplesNeeded[k]; }).join(', ') + ' samples)' : '')],
        ['p50 95 % interval (ms)', r.p50CiMs ? ms(r.p50CiMs[0]) + ' – ' + ms(r.p50CiMs[1]) : '– (fewer than 6 samples)'],
        ['mean ± sd (ms)', ms(r.meanMs) + ' ± ' + ms(r.stddevMs)],
        ['warm-ups, timed iterations', text(r.warmups) + ', ' + text(r.iterations) + (typeof r.warmupMs === 'number' ? ' (warm-ups ' + ms(r.warmupMs) + ' ms in all)' : '')],
        ['timer resolution (ms)', ms(r.timerResolutionMs)],
        ['latency floor', esc(d.cell.trust || 'none detected') + (typeof r.readbackMs === 'number' ? ' (empty readback ' + ms(r.readbackMs) + ' ms)' : '')],
        ['GPU time per inference (ms)', typeof r.gpuMs === 'number' ? ms(r.gpuMs) + ' (timestamp queries)' : '–'],
        ['steady, load before / after', esc(text(r.steady)) + ', ' + ms(r.loadBefore) + ' / ' + ms(r.loadAfter) + (r.busy ? ' (busy)' : '')],
        ['cold start: fetch / create / first run (ms)', ms(cs.fetchMs) + ' / ' + ms(cs.createMs) + ' / ' + ms(cs.firstRunMs)],
        ['vs native CPU', esc(d.cell.vsNativeLabel || '–') + (typeof d.cell.cpuP50 === 'number' ? ' (native CPU p50 ' + ms(d.cell.cpuP50) + ' ms)' : '')],
        ['score', d.cell.score + ' ' + esc(d.cell.grade)]].concat(generationRows(r.decoding)));
      rowsInto($('case-parity'), [
        ['against', esc(text(r.parityAgainst))], ['max abs error', esc(text(r.maxAbsErr))], ['max rel error', esc(text(r.maxRelErr))],
        ['cosine', esc(text(r.cosine))], ['tolerance (abs / rel)', esc(text(r.tolerance)) + ' / ' + esc(text(r.rtol))],
        ['tolerance basis', esc(text(r.toleranceBasis))], ['within', esc(text(r.within))], ['non-finite values', esc(text(r.nonFinite))]]);
      if (r.samplesMs && r.samplesMs.length) { V.distribution($('case-samples'), r.samplesMs, r.p50Ms); }
      else { $('case-samples').textContent = 'No timed iterations (the case did not execute).'; }
      $('case-hops').innerHTML = (r.fallbackPath || []).map(function (h) {
        return '<li' + (h.taken ? ' class="taken"' : '') + '>' + esc(h.backend) + (h.taken ? ' (taken)' : ' (rejected)') + ': '
          + esc(h.reason || '') + '</li>'; }).join('') || '<li>none</li>';
      var p = r.provenance || {};
      rowsInto($('case-provenance'), [
        ['host', esc(text(r.host)) + ' · ' + esc(text(p.os))], ['browser', esc(text(r.browser)) + ' via ' + esc(text(r.driver))],
        ['adapter', esc(text(r.adapter)) + (r.softwareAdapter ? ' <span class="sw">software adapter (WebGPU on the CPU)</span>' : '')],
        ['acceleration', esc(text(r.acceleration))], ['threads', esc(text(r.threads))],
        ['execution providers', esc((p.executionProviders || []).join(', ') || '–')],
        ['runtime versions', esc(Object.keys(p.runtimeVersions || {}).sort().map(function (k) { return k + ' ' + p.runtimeVersions[k]; }).join(', ') || '–')]]);
      var m = r.memory || {};
      function mb(b) { return typeof b === 'number' && b >= 0 ? (b / 1048576).toFixed(1) + ' MiB' : '–'; }
      var g = m.gpu, src = m.sources || {};
      function by(type) { var x = (m.processes || []).filter(function (q) { return q.type === type; })[0]; return x ? mb(x.peakBytes) : '–'; }
      // each figure as the store has it, its source beside it; what was not measured is a dash, never 0
      rowsInto($('case-memory'), [
        ['GPU peak / left after release', g ? mb(g.peakBytes) + ' / ' + mb(g.leftLiveBytes) : '–'],
        ['GPU buffers made (largest of the device\'s maxBufferSize)', g ? g.buffers + ' (' + mb(g.allocatedBytes) + '; largest ' + mb(g.largestBufferBytes)
          + (g.maxBufferSize > 0 ? ' of ' + mb(g.maxBufferSize) : '') + ')' : '–'],
        ['wasm heap (grown by the case)', mb(m.wasmHeapBytes) + (m.wasmGrowthBytes > 0 ? ' (+' + mb(m.wasmGrowthBytes) + ')' : '')],
        ['JS heap', mb(m.jsHeapBytes)], ['renderer / GPU process peak', by('renderer') + ' / ' + by('gpu-process')],
        ['RSS before', mb(m.rssBefore)], ['RSS after', mb(m.rssAfter)], ['RSS peak', mb(m.rssPeak)],
        ['sources', esc(Object.keys(src).map(function (k) { return k + ': ' + src[k]; }).join('; ') || '–')]]);
      document.querySelector('#case-diagnostics tbody').innerHTML = (r.diagnostics || []).map(function (x) {
        return '<tr><td class="severity-' + esc(x.severity) + '">' + esc(x.severity) + '</td><td>' + esc(x.message) + '</td><td>'
          + esc(x.action) + '</td></tr>'; }).join('') || '<tr><td colspan="3">none</td></tr>';
      profile(r.profile);
      bisection(r.bisection);
      V.cellHistory($('case-history'), d.history);
      document.querySelector('#case-history-table tbody').innerHTML = d.history.slice().reverse().map(function (h) {
        return '<tr' + (h.change === 'REGRESSION' ? ' class="regression"' : '') + '><td>' + esc(h.runId) + '</td><td>'
          + esc(text(h.startedAt)) + '</td><td class="' + esc(h.status) + '">' + esc(h.status) + '</td><td>' + ms(h.p50) + '</td><td>'
          + esc(changeText(h.change, h.changePercent)) + '</td></tr>'; }).join('');
    }).catch(showError);
  }
  function profile(p) {
    var el = $('case-profile');
    if (!p) { el.innerHTML = ''; return; }
    el.innerHTML = '<h3>Op profile (' + esc(p.source || '') + ', ' + esc(text(p.iterations)) + ' iterations)</h3><table><tr><th>op type</th>'
      + '<th>ms per iteration</th><th>share</th></tr>' + (p.ops || []).map(function (o) {
        return '<tr><td>' + esc(o.opType) + '</td><td>' + ms(o.ms) + '</td><td>' + (typeof o.share === 'number'
          ? (o.share * 100).toFixed(1) + ' %' : '–') + '</td></tr>'; }).join('') + '</table>'
      + ((p.nodesOffProvider || []).length ? '<p>' + p.nodesOffProvider.length + ' node(s) off the requested provider</p>' : '')
      + (p.note ? '<p class="meta">' + esc(p.note) + '</p>' : '');
  }
  function bisection(b) {
    var el = $('case-bisection');
    if (!b) { el.innerHTML = ''; return; }
    el.innerHTML = '<h3>Bisection: ' + esc(b.outcome) + '</h3><table><tr><th>first diverging node</th><td>' + esc(text(b.node))
      + ' (' + esc(text(b.opType)) + ')</td></tr><tr><th>max abs error</th><td>' + esc(text(b.maxAbsErr)) + '</td></tr><tr><th>repro</th><td>'
      + esc(text(b.reproDir)) + '</td></tr></table>' + (b.note ? '<p class="meta">' + esc(b.note) + '</p>' : '');
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
