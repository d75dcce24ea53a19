/*
 * The dashboard's case drill-down (#case/RUN/KEY): one result's figures, its generation's own, its history and
 * distribution (views.js), its op profile and bisection, from the JSON API.
 */
(function () {
  'use strict';
  var D = window.AccelbridgeDashboard;
  var V = D.V, esc = D.esc, $ = D.$, api = D.api, showError = D.showError, ms = D.ms, text = D.text, rowsInto = D.rowsInto,
    changeText = D.changeText, qs = D.qs;
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

  D.showCase = showCase;
})();
