package dev.accelbridge.junit5;

import dev.accelbridge.api.Accelbridge;
import dev.accelbridge.api.AccelbridgeSession;
import dev.accelbridge.api.SessionOptions;
import dev.accelbridge.run.RunListener;
import dev.accelbridge.core.AccelbridgeException;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Where a test's session lives: in the store of its top-level class's context (closed after the class) or of the engine's
 * root context (closed at the end of the run), as {@link AccelbridgeTest#scope()} or {@code accelbridge.session.scope}
 * say. Sessions are opened on first use, so a class whose templates are all filtered out starts nothing.
 */
final class Sessions {
    /** Configuration parameters (junit-platform.properties, {@code -D} with Surefire, the Launcher's). */
    static final String SCOPE = "accelbridge.session.scope";
    static final String DB = "accelbridge.db";
    static final String OUT = "accelbridge.out";

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(AccelbridgeExtension.class);

    private Sessions() {
    }

    /** The session of the test running in {@code ctx}, opened when it is the first to need it. */
    static AccelbridgeSession of(ExtensionContext ctx) {
        ExtensionContext owner = scope(ctx) == SessionScope.ENGINE ? ctx.getRoot() : topLevelClass(ctx);
        return owner.getStore(NS).computeIfAbsent(Holder.class, k -> new Holder(open(ctx)), Holder.class).session;
    }

    static SessionScope scope(ExtensionContext ctx) {
        SessionScope declared = SessionScope.DEFAULT;
        for (Class<?> c = ctx.getTestClass().orElse(null); c != null; c = c.getEnclosingClass()) {
            Optional<AccelbridgeTest> a = AnnotationSupport.findAnnotation(c, AccelbridgeTest.class);
            if (a.isPresent()) {
                declared = a.get().scope();
                break;
            }
        }
        if (declared != SessionScope.DEFAULT) {
            return declared;
        }
        String p = ctx.getConfigurationParameter(SCOPE).orElse("class").trim().toLowerCase(Locale.ROOT);
        return switch (p) {
            case "class" -> SessionScope.CLASS;
            case "engine" -> SessionScope.ENGINE;
            default -> throw new ExtensionConfigurationException("Configuration parameter " + SCOPE + "=" + p
                    + " is neither 'class' nor 'engine'; set it to one of them (or leave it out: class)");
        };
    }

    private static ExtensionContext topLevelClass(ExtensionContext ctx) {
        ExtensionContext c = ctx;
        while (c.getParent().isPresent() && c.getParent().get() != c.getRoot()) {
            c = c.getParent().get();
        }
        return c;
    }

    private static AccelbridgeSession open(ExtensionContext ctx) {
        try {
            return Accelbridge.create(SessionOptions.builder()
                    .optStore(ctx.getConfigurationParameter(DB).map(Path::of).orElse(null))
                    .optOutDir(Path.of(ctx.getConfigurationParameter(OUT).orElse("target/accelbridge")))
                    .optOrigin("junit5")
                    .optListener(new RunListener() {
                        @Override
                        public void info(String message) {
                            System.err.println("[accelbridge] " + message);
                        }
                    })
                    .build());
        } catch (AccelbridgeException e) {
            throw new ExtensionConfigurationException("Cannot open an Accelbridge session: " + e.oneLine(), e);
        }
    }

    /** The store value JUnit closes with its context. */
    private static final class Holder implements AutoCloseable {
        final AccelbridgeSession session;

        Holder(AccelbridgeSession session) {
            this.session = session;
        }

        @Override
        public void close() {
            session.close();
        }
    }
}
