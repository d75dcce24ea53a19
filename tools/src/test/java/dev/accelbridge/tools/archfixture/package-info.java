/**
 * A house of two modules for {@code ArchitectureRulesTest}: {@code lower} (with its {@code api} package and a type
 * marked {@code @PublicApi}) and {@code upper}, which may use it. Each class here is a case the rules must judge.
 */
package dev.accelbridge.tools.archfixture;
