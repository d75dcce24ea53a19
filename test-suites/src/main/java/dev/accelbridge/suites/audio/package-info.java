/**
 * The audio suite: a Whisper-style encoder ({@link dev.accelbridge.suites.audio.WhisperEncoderModel}) fed by
 * an 80-bin log-mel spectrogram ({@link dev.accelbridge.suites.audio.LogMel}) of a generated 16 kHz signal
 * ({@link dev.accelbridge.suites.audio.Waveforms}).
 */
package dev.accelbridge.suites.audio;
