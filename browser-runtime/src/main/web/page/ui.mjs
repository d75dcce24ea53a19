// The page's face: its state line, the facts it found and its log. What it shows is for a person watching the tab; the
// bridge learns nothing from it.

// `doc` holds #state, #facts and #log (index.html). The log's lines are kept in memory and drawn at most four times a
// second, outside the jobs: appending to a 60 KB text node and scrolling it on every line forced a layout each time
// (measured: most of a tiny case's cost).
export function createUi(doc) {
  const stateEl = doc.getElementById('state');
  const factsEl = doc.getElementById('facts');
  const logEl = doc.getElementById('log');
  const lines = [];
  let drawn = true;

  function setState(text, cls) {
    stateEl.textContent = text;
    stateEl.className = cls || '';
  }

  function log(line) {
    lines.push(`${new Date().toISOString().substring(11, 23)} ${line}`);
    if (lines.length > 600) lines.splice(0, lines.length - 400);
    if (!drawn) return;
    drawn = false;
    setTimeout(() => {
      drawn = true;
      logEl.textContent = `${lines.join('\n')}\n`;
      logEl.scrollTop = logEl.scrollHeight;
    }, 250);
  }

  function fact(k, v) {
    const tr = doc.createElement('tr');
    const a = doc.createElement('td'); a.textContent = k;
    const b = doc.createElement('td'); b.textContent = v;
    tr.append(a, b);
    factsEl.append(tr);
  }

  return { setState, log, fact };
}
