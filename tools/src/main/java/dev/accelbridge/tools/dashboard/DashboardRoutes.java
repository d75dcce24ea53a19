package dev.accelbridge.tools.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.bridge.BridgeRoutes;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.reports.StoreException;
import dev.accelbridge.reports.query.CaseFilter;
import dev.accelbridge.reports.render.ChartAssets;
import dev.accelbridge.reports.render.Comparison;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.suites.SuiteCatalog;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The dashboard's routes on the bridge's server: the page under {@code /dashboard/} (its scripts and the chart library
 * served from the jars, a Content-Security-Policy that lets nothing leave the origin) and the JSON API under
 * {@code /api/} (docs/dashboard.md). The server checks its token before every request (it has one when bound off
 * loopback); starting a run also needs a same-origin JSON request. Handlers only map requests onto
 * {@link DashboardApi}, {@link LiveFeed} and {@link RunLauncher}.
 */
public final class DashboardRoutes implements BridgeRoutes {
    /** What the dashboard's page may load: its own origin only. */
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
    private static final String WEB = "/dev/accelbridge/tools/dashboard/web/";
    private static final Map<String, String> FILES = Map.of("index.html", "text/html; charset=utf-8",
            "common.js", "text/javascript; charset=utf-8", "case.js", "text/javascript; charset=utf-8",
            "dashboard.js", "text/javascript; charset=utf-8", "dashboard.css", "text/css; charset=utf-8");

    private final DashboardApi api;
    private final LiveFeed live;
    private final RunLauncher launcher;

    /**
     * @param api      the store's answers
     * @param live     the live feed
     * @param launcher starts runs from the page
     */
    public DashboardRoutes(DashboardApi api, LiveFeed live, RunLauncher launcher) {
        this.api = api;
        this.live = live;
        this.launcher = launcher;
    }

    @Override
    public void register(RoutesConfig routes) {
        routes.get("/dashboard/", ctx -> file(ctx, "index.html"));
        routes.get("/dashboard/{file}", ctx -> file(ctx, ctx.pathParam("file")));
        routes.get("/api/runs", ctx -> json(ctx, api.runs()));
        routes.post("/api/runs", this::startRun);
        routes.get("/api/launch", ctx -> json(ctx, launcher.status()));
        routes.get("/api/cases", ctx -> json(ctx, api.cases(run(ctx), filter(ctx))));
        routes.get("/api/matrix", ctx -> json(ctx, api.matrix(run(ctx), filter(ctx))));
        routes.get("/api/case", ctx -> json(ctx, api.caseDetail(required(ctx, "run"), required(ctx, "key"))));
        routes.get("/api/compare", ctx -> json(ctx, api.compare(Comparison.By.parse(required(ctx, "by")), required(ctx, "a"),
                required(ctx, "b"), run(ctx))));
        routes.get("/api/ops", ctx -> json(ctx, api.ops()));
        routes.get("/api/recommendations", ctx -> json(ctx, api.recommendations(run(ctx),
                "true".equals(ctx.queryParam("perModel")))));
        routes.get("/api/options", ctx -> json(ctx, options()));
        routes.sse("/api/live", live::join);
        routes.exception(StoreException.class, (e, ctx) -> error(ctx, HttpStatus.NOT_FOUND, e));
        routes.exception(RunLauncher.Busy.class, (e, ctx) -> error(ctx, HttpStatus.CONFLICT, e));
        routes.exception(AccelbridgeException.class, (e, ctx) -> error(ctx, HttpStatus.BAD_REQUEST, e));
        routes.exception(picocli.CommandLine.ParameterException.class, (e, ctx) -> error(ctx, HttpStatus.BAD_REQUEST,
                new AccelbridgeException(e.getMessage(), "see 'accelbridge run --help' for the options")));
    }

    @Override
    public void close() {
        live.close();
    }

    private void startRun(Context ctx) {
        String origin = ctx.header("Origin");
        String site = ctx.header("Sec-Fetch-Site");
        String own = ctx.scheme() + "://" + ctx.host();
        if ((origin != null && !origin.equals(own)) || "cross-site".equals(site)) {
            error(ctx, HttpStatus.FORBIDDEN, new AccelbridgeException("A run can only be started from the dashboard's own page (Origin "
                    + origin + ", expected " + own + ")", "open the dashboard at " + own + "/dashboard/"));
            return;
        }
        if (ctx.contentType() == null || !ctx.contentType().startsWith("application/json")) {
            error(ctx, HttpStatus.UNSUPPORTED_MEDIA_TYPE, new AccelbridgeException("A run request must be JSON",
                    "post with Content-Type: application/json"));
            return;
        }
        JsonNode body;
        try {
            body = ResultJson.MAPPER.readTree(ctx.body());
        } catch (IOException e) {
            error(ctx, HttpStatus.BAD_REQUEST, new AccelbridgeException("The run request is not JSON: " + e.getMessage(), "post a JSON object"));
            return;
        }
        ctx.status(HttpStatus.ACCEPTED);
        json(ctx, launcher.start(RunForm.parse(body)));
    }

    /** The form's choices: what {@code accelbridge run} accepts. */
    static ObjectNode options() {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        ArrayNode s = o.putArray("suites");
        for (ModelFamily f : ModelFamily.values()) {
            if (f != ModelFamily.OTHER) {
                s.add(f.id());
            }
        }
        // checked at first: the default matrix's suites (the op suite is offered, never run unless chosen)
        ArrayNode ds = o.putArray("defaultSuites");
        SuiteCatalog.families().forEach(f -> ds.add(f.id()));
        ArrayNode b = o.putArray("backends");
        for (BackendId id : BackendId.values()) {
            b.add(id.id());
        }
        ArrayNode br = o.putArray("browsers");
        for (String k : BrowserKind.validIds().split(",\\s*")) {
            br.add(k);
        }
        ArrayNode p = o.putArray("precisions");
        for (Precision x : Precision.values()) {
            p.add(x.id());
        }
        o.set("filters", ResultJson.strings(CaseFilter.FIELDS));
        return o;
    }

    private static void file(Context ctx, String name) throws IOException {
        ctx.header("Content-Security-Policy", CSP).header("Cache-Control", "no-cache");
        if (name.equals(ChartAssets.ECHARTS) || name.equals(ChartAssets.VIEWS)) {
            ctx.contentType("text/javascript; charset=utf-8").result(ChartAssets.text(name));
            return;
        }
        if (name.equals(ChartAssets.GRID_CSS)) {
            ctx.contentType("text/css; charset=utf-8").result(ChartAssets.gridCss());
            return;
        }
        String type = FILES.get(name);
        try (InputStream in = type == null ? null : DashboardRoutes.class.getResourceAsStream(WEB + name)) {
            if (in == null) {
                ctx.status(HttpStatus.NOT_FOUND).contentType("text/plain").result("no such dashboard file");
                return;
            }
            ctx.contentType(type).result(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static CaseFilter filter(Context ctx) {
        return CaseFilter.parse(ctx.queryParamMap());
    }

    private static Optional<String> run(Context ctx) {
        return Optional.ofNullable(ctx.queryParam("run")).filter(r -> !r.isBlank() && !r.equals("latest"));
    }

    private static String required(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isBlank()) {
            throw new AccelbridgeException("The query parameter '" + name + "' is missing", "see docs/dashboard.md for the API");
        }
        return v;
    }

    private static void json(Context ctx, JsonNode n) {
        ctx.contentType("application/json").result(n.toString());
    }

    private static void error(Context ctx, HttpStatus status, AccelbridgeException e) {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        o.put("error", e.getMessage()).put("fix", e.fix());
        ctx.status(status).contentType("application/json").result(o.toString());
    }
}
