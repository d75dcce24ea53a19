package dev.accelbridge.junit5;

import dev.accelbridge.api.AccelbridgeSession;
import dev.accelbridge.api.SessionRun;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

import java.util.stream.Stream;

/**
 * The JUnit Jupiter extension: a {@link Backends} method becomes one run of its session (one run in the store, labelled
 * with the test's class and method) and one invocation per requested backend × browser, named after where it ran; any
 * test or lifecycle method may take the {@link AccelbridgeSession} as a parameter to run plans of its own.
 */
public final class AccelbridgeExtension implements TestTemplateInvocationContextProvider, ParameterResolver {

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, Backends.class)).orElse(false);
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        TemplateSpec spec = TemplateSpec.of(context);
        AccelbridgeSession session = Sessions.of(context);
        // The whole template runs first, as one run: the invocations' names can then say where each case really ran.
        SessionRun run = session.run(spec.plan(), context.getRequiredTestClass().getName() + "#" + context.getRequiredTestMethod().getName());
        return CaseInvocation.of(spec, run).stream().map(TestTemplateInvocationContext.class::cast);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == AccelbridgeSession.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return Sessions.of(extensionContext);
    }
}
