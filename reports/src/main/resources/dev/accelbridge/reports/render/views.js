/*
 * Accelbridge's chart views, shared by the static report (inlined into report.html) and the live dashboard
 * (served at /dashboard/views.js). Each view takes the cell objects Views.java defines and draws with Apache ECharts
 * (SVG renderer), but the matrix, an HTML table that grows with its text. Labels never overlap the legend: the ratio
 * charts need no legend (native CPU is the 1x line), and the history's lines are named in a list under it.
 */
(function (global) {
  'use strict';
  function uniq(a) { var s = {}, o = []; a.forEach(function (x) { if (!s[x]) { s[x] = 1; o.push(x); } }); return o; }
  function longest(a) { return a.reduce(function (m, x) { return Math.max(m, String(x).length); }, 0); }
  function esc(s) { return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) {
    return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; }); }
  function init(el) {
    var old = echarts.getInstanceByDom(el);
    if (old) { old.dispose(); }
    return echarts.init(el, null, { renderer: 'svg' });
  }
  function fmtMs(v) { return v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toPrecision(2); }

  /**
   * The matrix as an HTML table: rows grouped by family (a group collapses to one row of counts; a group of more than
   * opts.foldOver rows starts folded), columns grouped backend → browser (→ versions, when they differ); a backend's
   * columns collapse into one. Each cell is one status mark and one figure (p50 ms); its notes are on hover (title) and
   * a click calls opts.onCell(cell). Text never runs into a neighbour: a cell holds at most a mark and a short figure.
   */
  function grid(el, cells, opts) {
    opts = opts || {};
    var foldOver = opts.foldOver || 40;
    var state = el.__gridState || (el.__gridState = { folded: {}, closed: {}, touched: {} });
    var worst = ['WRONG_OUTPUT', 'FAILED', 'FELL_BACK', 'UNSUPPORTED', 'UNAVAILABLE', 'PASSED'];
    var groups = uniq(cells.map(function (c) { return c.group; }));
    var backends = uniq(cells.map(function (c) { return c.backend; }));
    var colKey = function (c) { return c.backend + '\u0000' + c.browser + '\u0000' + c.versions; };
    var cols = uniq(cells.map(colKey));
    var versionsVary = uniq(cells.filter(function (c) { return c.versions; }).map(function (c) { return c.versions; })).length > 1;
    var at = {};
    var glyphOf = {}; // each status's mark, as the server gives it
    cells.forEach(function (c) { at[c.group + '\u0000' + c.model + '\u0000' + colKey(c)] = c; glyphOf[c.status] = c.glyph; });
    function shownCols() {
      var out = [];
      backends.forEach(function (b) {
        var mine = cols.filter(function (k) { return k.split('\u0000')[0] === b; });
        if (state.closed[b]) { out.push({ backend: b, keys: mine, closed: true }); } else {
          mine.forEach(function (k) { out.push({ backend: b, keys: [k], closed: false }); });
        }
      });
      return out;
    }
    function counts(list) {
      var n = {};
      list.forEach(function (c) { n[c.status] = (n[c.status] || 0) + 1; });
      return n;
    }
    function mark(n) {
      var w = worst.filter(function (s) { return n[s]; })[0];
      if (!w) { return { text: '', cls: '' }; }
      var total = Object.keys(n).reduce(function (a, k) { return a + n[k]; }, 0);
      return { text: w === 'PASSED' ? glyphOf[w] + ' ' + total : glyphOf[w] + ' ' + n[w] + '/' + total, cls: 's-' + w.toLowerCase(),
        title: Object.keys(n).map(function (k) { return n[k] + ' ' + k; }).join(', ') };
    }
    function td(list, folded) {
      if (!list.length) { return '<td class="empty"></td>'; }
      if (list.length === 1 && !folded) {
        var c = list[0];
        var tip = [c.model + ' · ' + c.backend + ' [' + c.browserFull + (c.versions ? ' · ' + c.versions : '') + '] · ' + c.host,
          c.status + (c.actual && c.actual !== c.backend ? ' (ran on ' + c.actual + ')' : '') + ' · score ' + c.score,
          typeof c.p50 === 'number' ? 'p50 ' + fmtMs(c.p50) + ' ms' + (c.vsNativeLabel ? ' · ' + c.vsNativeLabel : '') : '',
          c.caveat, c.status !== 'PASSED' ? c.reason : ''].filter(function (x) { return x; }).join('\n');
        return '<td class="cell s-' + c.status.toLowerCase() + (c.software ? ' sw' : '') + (c.floored ? ' floor' : '')
          + (c.regression ? ' reg' : '') + '" data-key="' + esc(c.key) + '" title="' + esc(tip) + '"><span class="g">' + esc(c.glyph)
          + '</span>' + (c.figure ? ' ' + esc(c.figure) : '') + '</td>';
      }
      var m = mark(counts(list));
      return '<td class="agg ' + m.cls + '" title="' + esc(m.title) + '">' + esc(m.text) + '</td>';
    }
    function render() {
      var sc = shownCols();
      var h = ['<table class="grid"><thead><tr><th class="corner" rowspan="' + (versionsVary ? 3 : 2) + '">model</th>'];
      backends.forEach(function (b) {
        var span = sc.filter(function (x) { return x.backend === b; }).length;
        h.push('<th class="bk" colspan="' + span + '" data-backend="' + esc(b) + '" title="click to ' + (state.closed[b] ? 'open' : 'fold')
          + ' this backend\'s browsers">' + (state.closed[b] ? '▸ ' : '▾ ') + esc(b) + '</th>');
      });
      h.push('</tr><tr>');
      sc.forEach(function (x) {
        var parts = x.keys[0].split('\u0000');
        h.push('<th class="br">' + (x.closed ? x.keys.length + ' lanes' : esc(parts[1])) + '</th>');
      });
      h.push('</tr>');
      if (versionsVary) {
        h.push('<tr>');
        sc.forEach(function (x) { h.push('<th class="vr">' + (x.closed ? '' : esc(x.keys[0].split('\u0000')[2])) + '</th>'); });
        h.push('</tr>');
      }
      h.push('</thead>');
      groups.forEach(function (g) {
        var mine = cells.filter(function (c) { return c.group === g; });
        var models = uniq(mine.map(function (c) { return c.model; }));
        var folded = state.touched[g] ? state.folded[g] : models.length > foldOver;
        h.push('<tbody data-group="' + esc(g) + '"><tr class="gh"><th title="click to ' + (folded ? 'open' : 'fold') + '">'
          + (folded ? '▸ ' : '▾ ') + esc(g) + ' <span class="n">' + models.length + '</span></th>');
        // a family of one model says its counts only when folded: its one row says the same
        sc.forEach(function (x) {
          h.push(folded || models.length > 1 ? td(mine.filter(function (c) { return x.keys.indexOf(colKey(c)) >= 0; }), true)
            : '<td class="empty"></td>');
        });
        h.push('</tr>');
        if (!folded) {
          models.forEach(function (mo) {
            h.push('<tr><th class="rl">' + esc(mo) + '</th>');
            sc.forEach(function (x) {
              var list = x.keys.map(function (k) { return at[g + '\u0000' + mo + '\u0000' + k]; }).filter(function (c) { return c; });
              h.push(td(list, x.closed));
            });
            h.push('</tr>');
          });
        }
        h.push('</tbody>');
      });
      h.push('</table>');
      el.innerHTML = h.join('');
    }
    el.onclick = function (e) {
      var t = e.target.closest ? e.target.closest('th, td') : null;
      if (!t) { return; }
      if (t.classList.contains('bk')) { var b = t.getAttribute('data-backend'); state.closed[b] = !state.closed[b]; render(); return; }
      if (t.parentNode.classList.contains('gh')) {
        var g = t.parentNode.parentNode.getAttribute('data-group');
        var models = uniq(cells.filter(function (c) { return c.group === g; }).map(function (c) { return c.model; }));
        var was = state.touched[g] ? state.folded[g] : models.length > foldOver;
        state.touched[g] = true; state.folded[g] = !was; render(); return;
      }
      var key = t.getAttribute('data-key');
      if (key && opts.onCell) { opts.onCell(cells.filter(function (c) { return c.key === key; })[0]); }
    };
    render();
    return { resize: function () {}, render: render };
  }

  /**
   * Horizontal bars, each with its 95 % interval as a whisker and its value at the end: items are
   * { label, value, ci: [lo, hi] | null, color, cell }. opts: axis name, log, mark (a reference line's value and label),
   * empty (what is said when there is no bar), fmt (the value's text), onCell.
   */
  function intervalBars(el, items, opts) {
    // thousands of bars (an op suite) say nothing a person reads: the ends of the ranking, the rest in the tables
    var max = opts.max || 40;
    var total = items.length;
    if (total > max) { items = items.slice(0, max / 2).concat(items.slice(total - max / 2)); }
    note(el, total > max ? 'The first ' + max / 2 + ' and the last ' + max / 2 + ' of ' + total + ' bars; every cell is in the tables.' : '');
    el.style.height = Math.max(140, 60 + items.length * 24) + 'px';
    var chart = init(el);
    if (!items.length) {
      el.style.height = '60px';
      chart.setOption({ graphic: { type: 'text', left: 'center', top: 'middle',
        style: { text: opts.empty, fontSize: 13, fill: '#555' } } });
      return chart;
    }
    var labels = items.map(function (x) { return x.label; });
    var fmt = opts.fmt || function (v) { return fmtMs(v); };
    var hi = items.reduce(function (m, x) { return Math.max(m, x.ci ? x.ci[1] : x.value); }, 0);
    chart.setOption({
      animation: false,
      tooltip: { formatter: function (p) { var x = items[p.dataIndex];
        return esc(x.full || x.label) + '<br>' + fmt(x.value) + (x.ci ? ' [' + fmt(x.ci[0]) + ', ' + fmt(x.ci[1]) + ']' : '')
          + (x.note ? '<br>' + esc(x.note) : ''); } },
      // labels never pass the chart's left edge: a long one is cut with an ellipsis (its full text is in the tooltip)
      grid: { left: Math.min(470, 20 + longest(labels) * 6.2), right: 110, top: opts.mark ? 26 : 14, bottom: 44 },
      xAxis: { type: opts.log ? 'log' : 'value', name: opts.axis, nameLocation: 'middle', nameGap: 26, axisLabel: { hideOverlap: true },
        max: opts.log ? undefined : hi * 1.05,
        // a log axis starts at a power of ten at or below the smallest value (and the reference line)
        min: opts.log ? function (v) { var lo = Math.min(v.min, opts.mark ? opts.mark.value : v.min);
          return Math.pow(10, Math.floor(Math.log10(lo))); } : 0 },
      yAxis: { type: 'category', data: labels, inverse: true,
        axisLabel: { interval: 0, width: 450, overflow: 'truncate' } },
      series: [{ type: opts.dots ? 'scatter' : 'bar', barMaxWidth: 14, symbolSize: 9,
        data: items.map(function (x) { return { value: x.value, itemStyle: { color: x.color || '#4a78c2' } }; }),
        markLine: opts.mark ? { symbol: 'none', silent: true, lineStyle: { color: '#222', type: 'solid', width: 2 },
          // at the top of the line (the category axis runs downwards), clear of the value axis' tick labels
          label: { formatter: opts.mark.label, position: 'start' }, data: [{ xAxis: opts.mark.value }] } : undefined },
      // the interval as a whisker, and the value written past the whisker's end (never across it)
      { type: 'custom', silent: true, z: 5, data: items.map(function (x, i) { return x.ci ? [i, x.ci[0], x.ci[1], x.value] : [i, NaN, NaN, x.value]; }),
        renderItem: function (params, api) {
          var at = api.coord([api.value(3), api.value(0)]);
          var style = { stroke: '#222', lineWidth: 1.2 };
          var h = 8;
          var children = [];
          var end = at[0];
          if (isFinite(api.value(1))) {
            var lo = api.coord([api.value(1), api.value(0)]);
            var hiP = api.coord([api.value(2), api.value(0)]);
            end = Math.max(end, hiP[0]);
            children.push({ type: 'line', shape: { x1: lo[0], y1: lo[1], x2: hiP[0], y2: hiP[1] }, style: style },
              { type: 'line', shape: { x1: lo[0], y1: lo[1] - h / 2, x2: lo[0], y2: lo[1] + h / 2 }, style: style },
              { type: 'line', shape: { x1: hiP[0], y1: hiP[1] - h / 2, x2: hiP[0], y2: hiP[1] + h / 2 }, style: style });
          }
          children.push({ type: 'text', x: end + 6, y: at[1], style: { text: fmt(api.value(3)), fill: '#222', fontSize: 11,
            verticalAlign: 'middle' } });
          return { type: 'group', children: children };
        } }]
    });
    if (opts.onCell) {
      chart.on('click', function (p) { if (p.seriesIndex === 0) { opts.onCell(items[p.dataIndex].cell); } });
    }
    return chart;
  }

  /** A bar's label: the model, the backend (→ what ran) and the browser with its major, short enough to read whole. */
  function short(c) {
    return c.model + ' · ' + (c.actual && c.actual !== c.backend ? c.backend + ' → ' + c.actual : c.backend) + ' · ' + c.browser;
  }

  /** A line under a chart (after it, in the page's flow, so it never sits on the chart's own labels); '' removes it. */
  function note(el, text) {
    var n = el.nextElementSibling && el.nextElementSibling.className === 'chart-note' ? el.nextElementSibling : null;
    if (!text) { if (n) { n.remove(); } return; }
    if (!n) { n = document.createElement('p'); n.className = 'chart-note'; el.parentNode.insertBefore(n, el.nextSibling); }
    n.textContent = text;
  }

  /**
   * Browser p50 over the native CPU p50 of the same case and host, one bar per browser cell that ran on the backend asked
   * for (a fallen-back cell's figure belongs to another backend; a floored one says nothing of the model: neither is
   * ranked; nor is a software adapter's, WebGPU on the CPU: its figure is no GPU's speed), 1x = native CPU.
   */
  function ratio(el, cells, opts) {
    opts = opts || {};
    var rs = cells.filter(function (c) { return c.isBrowser && c.ranked && typeof c.vsNative === 'number' && c.vsNative > 0; });
    rs.sort(function (a, b) { return b.vsNative - a.vsNative; });
    return intervalBars(el, rs.map(function (c) { return { label: short(c), full: c.row + ' · ' + c.ran, value: c.vsNative, ci: c.vsNativeCi,
      color: c.vsNative > 1 ? '#c2504a' : '#1a9850', note: c.vsNativeLabel + (c.caveat ? ' ' + c.caveat : ''), cell: c }; }), {
      axis: 'browser p50 / native CPU p50 (whiskers: 95 % interval)', log: true, mark: { value: 1, label: 'native CPU = 1×' },
      fmt: function (v) { return '×' + (v >= 100 ? v.toFixed(0) : v.toFixed(2)); }, onCell: opts.onCell,
      empty: 'No browser cell on hardware has a native CPU reference in this scope.' });
  }

  /**
   * A generation figure per generation cell, as a dot with its interval on a log axis (a bar on a log axis would start
   * at an arbitrary power of ten): opts.which 'ttft' (ms, lower is better) or 'tokensPerSec'.
   */
  function generation(el, cells, opts) {
    var which = opts.which;
    var gs = cells.filter(function (c) { return typeof c[which] === 'number'; });
    gs.sort(function (a, b) { return which === 'ttft' ? a[which] - b[which] : b[which] - a[which]; });
    return intervalBars(el, gs.map(function (c) { return { label: short(c), full: c.row + ' · ' + c.ran, value: c[which], ci: c[which + 'Ci'],
      color: c.software ? '#b9a86a' : '#4a78c2', note: c.caveat, cell: c }; }), {
      axis: which === 'ttft' ? 'time to first token, ms (whiskers: 95 % interval)' : 'tokens per second (whiskers: 95 % interval)',
      log: true, dots: true, onCell: opts.onCell, fmt: which === 'ttft' ? function (v) { return fmtMs(v) + ' ms'; }
        : function (v) { return v >= 100 ? v.toFixed(0) : v.toFixed(1); },
      empty: 'No generation case in this scope.' });
  }

  /** p50 per run for every cell with two runs or more, each line named in a list under it; regressions drawn thick and red. */
  function history(el, cells, opts) {
    opts = opts || {};
    var hs = cells.filter(function (c) { return c.history.length >= 2; });
    hs.sort(function (a, b) { return (b.regression ? 1 : 0) - (a.regression ? 1 : 0); });
    var max = opts.max || 12;
    var shown = hs.slice(0, max);
    var chart = init(el);
    if (!shown.length) {
      el.style.height = '120px';
      chart.setOption({ graphic: { type: 'text', left: 'center', top: 'middle',
        style: { text: 'One run per cell so far: a cell\'s history line starts with its second run.', fontSize: 13, fill: '#555' } } });
      return chart;
    }
    el.style.height = '420px';
    var names = shown.map(function (c) { return c.row + ' · ' + c.col; });
    chart.setOption({
      animation: false,
      title: hs.length > max ? { text: 'the ' + max + ' of ' + hs.length + ' cells with history, regressions first', left: 'left',
        textStyle: { fontSize: 12, fontWeight: 'normal', color: '#555' } } : undefined,
      tooltip: { trigger: 'item', formatter: function (p) { return esc(p.seriesName) + '<br>run ' + esc(p.data[2]) + '<br>'
        + esc(p.data[0]) + '<br>p50 ' + fmtMs(p.data[1]) + ' ms'; } },
      // each line named in a legend at the right (scrolling, names cut to its width): names at the lines' ends ran
      // into each other where lines end close together
      grid: { left: 70, right: 30, top: 30, bottom: 40 },
      xAxis: { type: 'time', axisLabel: { hideOverlap: true, margin: 14 } },
      yAxis: { type: 'log', name: 'p50 ms', nameLocation: 'middle', nameGap: 48, axisLabel: { hideOverlap: true } },
      series: shown.map(function (c, i) {
        return { name: names[i] + (c.regression ? ' (regression ' + (c.changePercent || '') + ')' : ''), type: 'line',
          showSymbol: true, symbolSize: 6, data: c.history,
          lineStyle: c.regression ? { width: 3, color: '#b00020' } : { width: 1.5 },
          itemStyle: c.regression ? { color: '#b00020' } : undefined };
      })
    });
    // the lines' names in an HTML list under the chart, each with its colour: names drawn in the chart (at the lines'
    // ends, or in a legend beside them) ran into each other and into the axis labels
    var key = el.nextElementSibling && el.nextElementSibling.className === 'chart-key' ? el.nextElementSibling : null;
    if (!key) { key = document.createElement('ol'); key.className = 'chart-key'; el.parentNode.insertBefore(key, el.nextSibling); }
    var palette = chart.getOption().color;
    key.innerHTML = shown.map(function (c, i) { var col = c.regression ? '#b00020' : palette[i % palette.length];
      return '<li><span style="display:inline-block;width:10px;height:10px;margin-right:4px;background:' + col + '"></span>'
        + esc(names[i]) + (c.regression ? ' (regression ' + esc(c.changePercent || '') + ')' : '') + '</li>'; }).join('');
    return chart;
  }

  /** One cell's p50 over runs with its regressions marked (points: Views.history). */
  function cellHistory(el, points) {
    var pts = points.filter(function (p) { return typeof p.p50 === 'number' && p.startedAt; });
    el.style.height = '260px';
    var chart = init(el);
    chart.setOption({
      animation: false,
      tooltip: { trigger: 'item', formatter: function (p) { var q = pts[p.dataIndex];
        return 'run ' + esc(q.runId) + '<br>' + esc(q.startedAt) + '<br>' + esc(q.status) + ' · p50 ' + fmtMs(q.p50) + ' ms'
          + (q.change ? '<br>' + esc(q.change) + ' ' + esc(q.changePercent || '') : ''); } },
      grid: { left: 60, right: 20, top: 20, bottom: 30 },
      xAxis: { type: 'time' }, yAxis: { type: 'value', name: 'p50 ms', scale: true },
      series: [{ type: 'line', name: 'p50', showSymbol: true, symbolSize: 8,
        data: pts.map(function (q) { return { value: [q.startedAt, q.p50],
          itemStyle: { color: q.change === 'REGRESSION' ? '#b00020' : q.change === 'IMPROVEMENT' ? '#1a9850' : '#4a78c2' },
          label: { show: q.change === 'REGRESSION' || q.change === 'IMPROVEMENT', formatter: (q.change || '').toLowerCase()
            + ' ' + (q.changePercent || ''), position: 'top', color: '#b00020' } }; }) }]
    });
    return chart;
  }

  /** The timed iterations in order, with their p50 as a line. */
  function distribution(el, samples, p50) {
    el.style.height = '220px';
    var chart = init(el);
    chart.setOption({
      animation: false, tooltip: { trigger: 'axis' },
      grid: { left: 60, right: 110, top: 20, bottom: 30 },
      xAxis: { type: 'category', name: 'iteration', data: samples.map(function (_, i) { return i + 1; }) },
      yAxis: { type: 'value', name: 'ms', scale: true },
      series: [{ type: 'bar', name: 'ms', data: samples, itemStyle: { color: '#4a78c2' },
        markLine: typeof p50 === 'number' ? { symbol: 'none', label: { formatter: 'p50 ' + fmtMs(p50) + ' ms' },
          data: [{ yAxis: p50 }] } : undefined }]
    });
    return chart;
  }

  global.AccelbridgeViews = { grid: grid, ratio: ratio, generation: generation, history: history, cellHistory: cellHistory,
    distribution: distribution, esc: esc, fmtMs: fmtMs };
})(window);
