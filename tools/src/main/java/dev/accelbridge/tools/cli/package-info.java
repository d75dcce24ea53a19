/**
 * The {@code accelbridge} command line (picocli): {@code detect}, {@code suites}, {@code run}, {@code serve},
 * {@code report}, {@code export}, {@code merge}. Commands parse options into option records and delegate;
 * errors print one line ({@code problem — fix}) and a stack trace only with {@code --verbose}.
 */
package dev.accelbridge.tools.cli;
