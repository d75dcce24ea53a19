// The page's WebSocket to the bridge, held in a shared worker (socket.mjs explains why). One page connects to one
// instance (a name of its own), asks it to open the socket, then sends through it; what the socket receives comes back
// over the port, binary frames transferred, not copied. The page's flow control reads the socket's bufferedAmount: it is
// reported after every send and every 2 ms while data is still queued.
'use strict';

onconnect = (e) => {
  const port = e.ports[0];
  let ws = null;
  let polling = false;

  const report = () => port.postMessage({ op: 'buffered', amount: ws ? ws.bufferedAmount : 0 });
  const poll = () => {
    if (polling) return;
    polling = true;
    const tick = () => {
      report();
      if (ws && ws.bufferedAmount > 0 && ws.readyState === WebSocket.OPEN) setTimeout(tick, 2);
      else polling = false;
    };
    setTimeout(tick, 2);
  };

  port.onmessage = (m) => {
    const d = m.data;
    if (d.op === 'open' && ws === null) {
      try {
        ws = new WebSocket(d.url);
      } catch (err) {
        port.postMessage({ op: 'close', code: 1006, reason: `the relay could not open the socket: ${err && err.message}` });
        return;
      }
      ws.binaryType = 'arraybuffer';
      ws.onopen = () => port.postMessage({ op: 'open' });
      ws.onmessage = (ev) => port.postMessage({ op: 'message', data: ev.data }, typeof ev.data === 'string' ? [] : [ev.data]);
      ws.onclose = (ev) => { port.postMessage({ op: 'close', code: ev.code, reason: ev.reason }); close(); };
    } else if (d.op === 'send' && ws && ws.readyState === WebSocket.OPEN) {
      ws.send(d.data);
      port.postMessage({ op: 'sent', bytes: d.bytes, buffered: ws.bufferedAmount });
      if (ws.bufferedAmount > 0) poll();
    } else if (d.op === 'close') {
      if (ws) ws.close(d.code, d.reason);
      else close();
    }
  };
  port.start();
  port.postMessage({ op: 'ready' }); // the page opens the socket itself when this never comes
};
