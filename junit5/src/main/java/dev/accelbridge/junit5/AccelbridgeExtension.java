package dev.accelbridge.junit5;

import com.microsoft.playwright.Page;
import dev.accelbridge.api.AccelbridgeSession;
import dev.accelbridge.api.ObservedPage;
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
 * test or lifecycle method may take the {@link AccelbridgeSession} as a parameter to run plans of its own. A test method
 * may take an {@link ObservedPage}: a headless Chromium's page with the observer installed, which the method also gets
 * as a Playwright {@link Page} parameter to drive its app with; both are closed after it.
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
        Class<?> type = parameterContext.getParameter().getType();
        return type == AccelbridgeSession.class || type == ObservedPage.class
                // the page only beside its observation: a test on Playwright's own extension keeps its Page
                || type == Page.class && java.util.Arrays.stream(parameterContext.getDeclaringExecutable().getParameterTypes())
                .anyMatch(ObservedPage.class::equals);
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Class<?> type = parameterContext.getParameter().getType();
        if (type == ObservedPage.class) {
            return ObservedPages.of(extensionContext).observed();
        }
        if (type == Page.class) {
            return ObservedPages.of(extensionContext).page();
        }
        return Sessions.of(extensionContext);
    }
}
