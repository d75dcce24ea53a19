/** A row and its readers, for the rule that a result's parts are not unwrapped ({@code ResultUnwrapsTest}). */
package dev.accelbridge.tools.archfixture.results;
