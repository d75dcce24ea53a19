/**
 * The text suite: a BERT-style encoder ({@link dev.accelbridge.suites.text.BertModel}) fed by a real WordPiece
 * tokenizer ({@link dev.accelbridge.suites.text.WordPieceTokenizer}) over the vocabulary the suite ships.
 */
package dev.accelbridge.suites.text;
