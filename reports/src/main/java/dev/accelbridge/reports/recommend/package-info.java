/** Which backend to use, computed from what the store measured: never from guesses. */
package dev.accelbridge.reports.recommend;
