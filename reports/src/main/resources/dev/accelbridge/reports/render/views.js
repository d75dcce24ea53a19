/*
 * Accelbridge's chart views, shared by the static report (inlined into report.html) and the live dashboard
 * (served at /dashboard/views.js). Each view takes the cell objects Views.java defines and draws with Apache ECharts
 * (SVG renderer). Labels never overlap the legend: the heatmap's colour scale stands at the right, the ratio chart
 * needs no legend (native CPU is the 1x line), and history lines are named at their ends.
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

  /** Score per cell (rows: models, columns: backend [browser]); a click calls onCell(cell). */
  function heatmap(el, cells, opts) {
    opts = opts || {};
    var rows = uniq(cells.map(function (c) { return c.row; }));
    var cols = uniq(cells.map(function (c) { return c.col; }));
    var byKey = {};
    cells.forEach(function (c) { byKey[c.row + '\u0000' + c.col] = c; });
    var bottom = Math.min(260, 30 + longest(cols) * 5.2);
    el.style.height = Math.max(260, 60 + rows.length * 46 + bottom) + 'px';
    var chart = init(el);
    chart.setOption({
      animation: false,
      tooltip: { formatter: function (p) { var c = byKey[rows[p.value[1]] + '\u0000' + cols[p.value[0]]];
        return esc(c.row) + '<br>' + esc(c.col) + '<br>' + esc(c.status) + ' · score ' + c.score + ' (' + esc(c.grade) + ')'
          + (c.caveat ? '<br>' + esc(c.caveat) : '') + (c.vsNativeLabel ? '<br>' + esc(c.vsNativeLabel) : ''); } },
      grid: { left: Math.min(320, 20 + longest(rows) * 6.5), right: 110, top: 10, bottom: bottom },
      xAxis: { type: 'category', data: cols, axisLabel: { rotate: 40, interval: 0 } },
      yAxis: { type: 'category', data: rows, axisLabel: { interval: 0 } },
      visualMap: { min: 0, max: 100, calculable: true, orient: 'vertical', right: 10, top: 'middle',
        text: ['score 100', '0'], inRange: { color: ['#d73027', '#fee08b', '#1a9850'] } },
      series: [{ type: 'heatmap', data: cells.map(function (c) { return [cols.indexOf(c.col), rows.indexOf(c.row), c.score]; }),
        label: { show: cells.length <= 400, fontSize: 9, formatter: function (p) {
          var c = byKey[rows[p.value[1]] + '\u0000' + cols[p.value[0]]];
          return c.status.replace('_', ' ') + (c.caveat ? '\n' + c.caveat.replace(/[\[\]]/g, '') : ''); } } }]
    });
    if (opts.onCell) {
      chart.on('click', function (p) { opts.onCell(byKey[rows[p.value[1]] + '\u0000' + cols[p.value[0]]]); });
    }
    return chart;
  }

  /**
   * Browser p50 over the native CPU p50 of the same case and host, one bar per browser cell that ran on the backend asked
   * for (a fallen-back cell's figure belongs to another backend: it is not ranked), 1x = native CPU.
   */
  function ratio(el, cells, opts) {
    opts = opts || {};
    var rs = cells.filter(function (c) { return c.isBrowser && c.ranked && typeof c.vsNative === 'number' && c.vsNative > 0; });
    rs.sort(function (a, b) { return b.vsNative - a.vsNative; });
    var labels = rs.map(function (c) { return c.row + ' · ' + c.ran; });
    el.style.height = Math.max(140, 50 + rs.length * 22) + 'px';
    var chart = init(el);
    if (!rs.length) {
      chart.setOption({ graphic: { type: 'text', left: 'center', top: 'middle',
        style: { text: 'No browser cell has a native CPU reference in this scope.', fontSize: 13, fill: '#555' } } });
      return chart;
    }
    chart.setOption({
      animation: false,
      tooltip: { formatter: function (p) { var c = rs[p.dataIndex];
        return esc(c.row) + '<br>' + esc(c.ran) + '<br>p50 ' + fmtMs(c.p50) + ' ms vs native CPU ' + fmtMs(c.cpuP50) + ' ms<br>'
          + esc(c.vsNativeLabel) + (c.caveat ? '<br>' + esc(c.caveat) : ''); } },
      grid: { left: Math.min(420, 20 + longest(labels) * 6.2), right: 90, top: 34, bottom: 40 },
      xAxis: { type: 'log', name: 'browser p50 / native CPU p50', nameLocation: 'middle', nameGap: 22, min: function (v) {
        return Math.min(0.1, v.min / 2); } },
      yAxis: { type: 'category', data: labels, inverse: true, axisLabel: { interval: 0 } },
      series: [{ type: 'bar', barMaxWidth: 16,
        data: rs.map(function (c) { return { value: c.vsNative, itemStyle: { color: c.vsNative > 1 ? '#c2504a' : '#1a9850' } }; }),
        label: { show: true, position: 'right', formatter: function (p) { return '×' + p.value.toFixed(2); } },
        markLine: { symbol: 'none', silent: true, lineStyle: { color: '#222', type: 'solid', width: 2 },
          label: { formatter: 'native CPU = 1×', position: 'start' }, data: [{ xAxis: 1 }] } }]
    });
    if (opts.onCell) {
      chart.on('click', function (p) { if (p.componentType === 'series') { opts.onCell(rs[p.dataIndex]); } });
    }
    return chart;
  }

  /** p50 per run for every cell with two runs or more, each line named at its end; regressions drawn thick and red. */
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
      grid: { left: 60, right: Math.min(360, 20 + longest(names) * 6), top: 30, bottom: 30 },
      xAxis: { type: 'time' }, yAxis: { type: 'log', name: 'p50 ms' },
      series: shown.map(function (c, i) {
        return { name: names[i] + (c.regression ? ' (regression ' + (c.changePercent || '') + ')' : ''), type: 'line',
          showSymbol: true, symbolSize: 6, data: c.history,
          lineStyle: c.regression ? { width: 3, color: '#b00020' } : { width: 1.5 },
          itemStyle: c.regression ? { color: '#b00020' } : undefined,
          endLabel: { show: true, fontSize: 10, formatter: function (p) { return p.seriesName; } } };
      })
    });
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

  global.AccelbridgeViews = { heatmap: heatmap, ratio: ratio, history: history, cellHistory: cellHistory,
    distribution: distribution, esc: esc, fmtMs: fmtMs };
})(window);
