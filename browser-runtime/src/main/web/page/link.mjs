// The page's connection to the bridge: the one place the page holds its socket (socket.mjs: in a shared worker where the
// browser has them). It joins with hello, reconnects when the bridge goes away, and is how every part of the page answers.
import { Kind } from './kinds.mjs';
import { PROTOCOL_VERSION } from './frames.mjs';
import { BridgeSocket } from './socket.mjs';

// A URL of the bridge's (a model, its external data, an encoder) with the page's token, which the bridge asks of it.
export function bridgeUrl(href, token) {
  const url = new URL(href, location.href);
  if (token && !url.searchParams.has('token')) url.searchParams.set('token', token);
  return url;
}

export class Link {
  // `ui` the page's face; `hello()` the fields of the page's hello (read at every join: a probe job renews them);
  // `onText(data)` and `onBinary(buffer)` take what arrives.
  constructor({ ui, token, hello, onText, onBinary }) {
    this.ui = ui;
    this.token = token;
    this.hello = hello;
    this.onText = onText;
    this.onBinary = onBinary;
    this.ws = null;
    this.rejected = false; // refused by the bridge, or renewing: no reconnecting from this document
    this.viaSaid = false; // the page's facts say once where its socket lives
  }

  get open() { return this.ws !== null && this.ws.readyState === WebSocket.OPEN; }

  get bufferedAmount() { return this.ws.bufferedAmount; }

  connect(attempt = 0) {
    const url = new URL('/ws', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    url.search = '';
    if (this.token) url.searchParams.set('token', this.token);
    this.ui.setState(attempt ? `reconnecting to the bridge (attempt ${attempt + 1})…` : 'connecting to the bridge…');
    const ws = new BridgeSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      if (!this.viaSaid) this.ui.fact('bridge connection', `WebSocket held by the ${ws.via}`);
      this.viaSaid = true;
      this.send({ type: Kind.HELLO, ...this.hello() });
      this.ui.setState('connected; waiting for the bridge to accept this page');
    };
    ws.onmessage = (ev) => (typeof ev.data === 'string' ? this.onText(ev.data) : this.onBinary(ev.data));
    ws.onclose = (ev) => {
      this.ui.log(`connection closed (${ev.code}${ev.reason ? ' ' + ev.reason : ''})`);
      if (this.rejected || ev.code === 1008) { this.ui.setState(`the bridge refused this page: ${ev.reason || 'policy'}`, 'err'); return; }
      this.ui.setState('disconnected from the bridge; retrying…', 'err');
      if (attempt < 30) setTimeout(() => this.connect(attempt + 1), 2000);
    };
  }

  // A text message; dropped while the page is not connected (the bridge fails its pending jobs on the close).
  send(obj) {
    if (this.open) this.ws.send(JSON.stringify({ v: PROTOCOL_VERSION, ...obj }));
  }

  // A binary frame (frames.mjs), handed to the socket as it is.
  sendFrame(buffer) {
    this.ws.send(buffer);
  }

  // `overLimit`: a WebGPU buffer asked for above the device's limit (ledger.mjs), sent as numbers beside the words
  sendError(job, code, message, overLimit) {
    this.ui.log(`error ${code}${job ? ` (job ${job})` : ''}: ${message}`);
    this.send({ type: Kind.ERROR, job: job || null, code, message, ...(overLimit ? { overLimit } : {}) });
  }
}
