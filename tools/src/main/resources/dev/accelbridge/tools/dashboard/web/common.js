/*
 * What the dashboard's scripts share: the JSON API (with the server's token, when the page was opened with ?token=), the
 * page's state, and the small formatters of its tables. dashboard.js routes and draws the views, case.js the drill-down.
 */
window.AccelbridgeDashboard = (function () {
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

  return { V: V, esc: esc, token: token, state: state, $: $, api: api, showError: showError, clearError: clearError, ms: ms,
    text: text, rowsInto: rowsInto, changeText: changeText, caseHref: caseHref, qs: qs };
})();
