// The page's connection to the bridge, with a WebSocket's surface (readyState, bufferedAmount, send, close, onopen,
// onmessage, onclose). Where the browser has shared workers, the socket itself lives in one (relay.js) and the page
// talks to it over a MessagePort, binary frames transferred rather than copied. Why: Playwright forwards every frame of
// a page's WebSockets to its client, base64 in its JSON protocol, whether anything listens or not, so every tensor
// crossed three more times and the client went on parsing them while the next case ran (measured: a run with 200 MB in
// and 400 MB out spent 13.1 s in transfers under Playwright, 4.4 s with the browser launched as a plain process).
// Playwright does not attach to shared workers. Without them, or when the worker does not start, the page opens the
// socket itself, as before.

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 3;
/** How long the relay may take to say it is there before the page opens the socket itself. */
const RELAY_READY_MS = 10000;
let relays = 0; // connections this page has opened through a relay

export class BridgeSocket {
  constructor(url) {
    this.url = String(url);
    this.readyState = CONNECTING;
    this.onopen = null;
    this.onmessage = null;
    this.onclose = null;
    this.via = null; // 'shared worker' or 'page', with why when the relay could not be used
    this._ws = null;
    this._port = null;
    this._unacked = 0; // bytes handed to the relay that it has not yet passed to its socket
    this._buffered = 0; // the relay's socket's bufferedAmount, as last reported
    if (typeof SharedWorker !== 'function') { this._direct('no shared workers in this browser'); return; }
    let worker;
    try {
      // a worker of its own: this document's start (µs) and its connection's number set it apart from any other page
      const name = `accelbridge-${performance.timeOrigin}-${++relays}`;
      worker = new SharedWorker(new URL('./relay.js', import.meta.url), { name });
    } catch (e) {
      this._direct(`the relay did not start: ${e && e.message}`);
      return;
    }
    const ready = setTimeout(() => this._abandon(`the relay did not answer within ${RELAY_READY_MS} ms`), RELAY_READY_MS);
    worker.onerror = (e) => { clearTimeout(ready); this._abandon(`the relay failed: ${(e && e.message) || 'script error'}`); };
    this._port = worker.port;
    this._port.onmessage = (m) => { clearTimeout(ready); this._fromRelay(m.data); };
    this._port.start();
    this._port.postMessage({ op: 'open', url: this.url });
  }

  // closed, nothing more will drain: 0, so a sender waiting for room stops waiting and finds the socket closed
  get bufferedAmount() {
    if (this._ws) return this._ws.bufferedAmount;
    return this.readyState === CLOSED ? 0 : this._unacked + this._buffered;
  }

  send(data) {
    if (this._ws) { this._ws.send(data); return; }
    if (this.readyState !== OPEN) throw new DOMException('the bridge connection is not open', 'InvalidStateError');
    const bytes = typeof data === 'string' ? data.length : data.byteLength;
    this._unacked += bytes;
    // every binary frame the page sends is a buffer made for that one send: handed over, not copied
    this._port.postMessage({ op: 'send', data, bytes }, data instanceof ArrayBuffer ? [data] : []);
  }

  close(code, reason) {
    if (this._ws) this._ws.close(code, reason);
    else if (this._port) this._port.postMessage({ op: 'close', code, reason });
  }

  _fromRelay(d) {
    if (d.op === 'open') {
      this.via = 'shared worker';
      this.readyState = OPEN;
      if (this.onopen) this.onopen({});
    } else if (d.op === 'message') {
      if (this.onmessage) this.onmessage({ data: d.data });
    } else if (d.op === 'sent') {
      this._unacked -= d.bytes;
      this._buffered = d.buffered;
    } else if (d.op === 'buffered') {
      this._buffered = d.amount;
    } else if (d.op === 'close') {
      this.readyState = CLOSED;
      this._port.close();
      if (this.onclose) this.onclose({ code: d.code, reason: d.reason });
    }
  }

  // Before the relay said anything: the page opens the socket itself (after, a failure is the socket's close).
  _abandon(why) {
    if (this.readyState !== CONNECTING || this._ws) return;
    if (this._port) this._port.close();
    this._direct(why);
  }

  _direct(why) {
    this.via = `page (${why})`;
    const ws = new WebSocket(this.url);
    ws.binaryType = 'arraybuffer';
    this._ws = ws;
    ws.onopen = (e) => { this.readyState = OPEN; if (this.onopen) this.onopen(e); };
    ws.onmessage = (e) => { if (this.onmessage) this.onmessage(e); };
    ws.onclose = (e) => { this.readyState = CLOSED; if (this.onclose) this.onclose(e); };
  }
}
