// Which execution provider each node of a session was placed on, read from ONNX Runtime's verbose log
// (session_state.cc, VerifyEachNodeIsAssignedToAnEp): "Node placements", then either " All nodes placed on [EP]. Number of
// nodes: N", or per provider " Node(s) placed on [EP]. Number of nodes: N" followed by its N nodes "  OpType (node name)",
// each a log record of its own in onnxruntime-web 1.30 (older builds wrote them as the header's further lines).
// The log is another program's text: at most MAX_NODES names are kept per provider, each cut to 300 characters.
export const MAX_NODES = 500;

const ALL = /All nodes placed on \[([A-Za-z0-9_]+)\]\. Number of nodes: (\d+)/;
const SOME = /Node\(s\) placed on \[([A-Za-z0-9_]+)\]\. Number of nodes: (\d+)/;
// a log record's prefix: "2026-11-26 10:22:54.27 [V:onnxruntime:, session_state.cc:1385 VerifyEachNodeIsAssignedToAnEp] "
const PREFIX = /^.*?\[[VIWEF]:onnxruntime:[^\]]*\]/;
const NODE = /^(\S+) \((.*)\)$/;

export function nodePlacement(lines) {
  const text = lines.join('\n').split('\n');
  const out = {};
  let found = false;
  for (let i = 0; i < text.length; i++) {
    const all = ALL.exec(text[i]);
    if (all) {
      out[all[1]] = { count: Number(all[2]), nodes: [] };
      found = true;
      continue;
    }
    const some = SOME.exec(text[i]);
    if (!some) continue;
    found = true;
    const count = Number(some[2]);
    const nodes = [];
    for (let k = 1; k <= count && i + k < text.length; k++) {
      const line = text[i + k];
      if (SOME.test(line)) break;
      const n = line.replace(PREFIX, '').trim();
      if (!NODE.test(n)) break;
      if (nodes.length < MAX_NODES) nodes.push(n.slice(0, 300));
    }
    out[some[1]] = { count, nodes };
  }
  return found ? out : null;
}
