/**
 * Why a case is wrong: bisection over a model's intermediate tensors to the first node whose outputs leave the
 * reference's tolerance, and the single-node repro written for that node.
 */
package dev.accelbridge.bisect;
