// The page protocol's message kinds, the one list the page uses; the bridge's side is the Java enum
// dev.accelbridge.bridge.protocol.MessageKind, and a test holds the two to the same names and ids (docs/protocol.md).
export const Kind = Object.freeze({
  HELLO: 'hello',
  WELCOME: 'welcome',
  PROBE: 'probe',
  LOAD: 'load',
  LOADED: 'loaded',
  RUN: 'run',
  GENERATE: 'generate',
  CHUNK: 'chunk',
  PROGRESS: 'progress',
  RESULT: 'result',
  RESULT_CHUNK: 'result-chunk',
  PROFILE: 'profile',
  PROFILED: 'profiled',
  RELEASE: 'release',
  RELEASED: 'released',
  PING: 'ping',
  PONG: 'pong',
  RENEW: 'renew',
  ERROR: 'error',
});
