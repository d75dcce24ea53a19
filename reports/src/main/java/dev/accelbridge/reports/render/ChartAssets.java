package dev.accelbridge.reports.render;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.reports.ReportsException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scripts both the static report and the dashboard draw with, read from this jar: Apache ECharts (installed from
 * npm at build time, no CDN), {@code views.js}, the views shared by both, and {@code grid.css}, the matrix grid's style.
 */
@PublicApi
public final class ChartAssets {
    /** The chart library's file name. */
    public static final String ECHARTS = "echarts.min.js";
    /** The shared views' file name. */
    public static final String VIEWS = "views.js";
    /** The matrix grid's style sheet's file name. */
    public static final String GRID_CSS = "grid.css";
    private static final Map<String, String> CACHE = new ConcurrentHashMap<>();

    private ChartAssets() {
    }

    /** Apache ECharts' source. */
    public static String echarts() {
        return text(ECHARTS);
    }

    /** The matrix grid's style sheet. */
    public static String gridCss() {
        return text(GRID_CSS);
    }

    /** The shared views' source. */
    public static String views() {
        return text(VIEWS);
    }

    /**
     * One of the files.
     *
     * @throws ReportsException when the jar lacks it (a build without npm)
     */
    public static String text(String name) {
        return CACHE.computeIfAbsent(name, n -> {
            try (InputStream in = ChartAssets.class.getResourceAsStream(n)) {
                if (in == null) {
                    throw new ReportsException("The chart script " + n + " is missing from the accelbridge-reports jar",
                            "rebuild with Maven so 'npm ci' in reports/ installs it (needs npm and the npm registry)");
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException x) {
                throw new ReportsException("Cannot read the chart script " + n + ": " + x.getMessage(), "rebuild the project", x);
            }
        });
    }
}
