package dev.accelbridge.core;

import java.util.List;

/**
 * Version axes core's own tests register (core has none of its own: browser-runtime and native-runner declare the real
 * ones): a browser major written within the browser's option, a browser-side axis with no option of its own, and a
 * native one. Their versions are whatever a test gives; nothing is fetched.
 */
final class TestAxes {
    private TestAxes() {
    }

    /** A browser's major, written {@code chromium-shell@141} like the real one. */
    public static final class Major implements VersionAxis {
        static final Dimension<String> DIMENSION = Dimension.version("major", "test major", "--browser", "test-major");

        @Override
        public Dimension<String> dimension() {
            return DIMENSION;
        }

        @Override
        public String subject() {
            return "test browser";
        }

        @Override
        public LaneSide side() {
            return LaneSide.BROWSER;
        }

        @Override
        public int order() {
            return 0;
        }

        @Override
        public String keyPart(String v) {
            return "@" + v;
        }

        @Override
        public void check(String v) {
            if (!v.chars().allMatch(Character::isDigit)) {
                throw new AccelbridgeException("A browser's version in a lane is its major version, got " + v, "give the major");
            }
        }

        @Override
        public List<String> published() {
            return List.of("141", "153");
        }

        @Override
        public List<String> atHand() {
            return List.of("153");
        }
    }

    /** A browser-side axis with no option of its own. */
    public static final class Shader implements VersionAxis {
        static final Dimension<String> DIMENSION = Dimension.version("shaderVersion", "test shader version", null, "shader");

        @Override
        public Dimension<String> dimension() {
            return DIMENSION;
        }

        @Override
        public String subject() {
            return "test shader compiler";
        }

        @Override
        public LaneSide side() {
            return LaneSide.BROWSER;
        }

        @Override
        public int order() {
            return 10;
        }

        @Override
        public List<String> published() {
            return List.of("1", "2");
        }

        @Override
        public List<String> atHand() {
            return List.of();
        }
    }

    /** A native axis. */
    public static final class Engine implements VersionAxis {
        static final Dimension<String> DIMENSION = Dimension.version("engineVersion", "test engine version", "--engine", "engine");

        @Override
        public Dimension<String> dimension() {
            return DIMENSION;
        }

        @Override
        public String subject() {
            return "test engine";
        }

        @Override
        public LaneSide side() {
            return LaneSide.NATIVE;
        }

        @Override
        public int order() {
            return 20;
        }

        @Override
        public List<String> published() {
            return List.of("1.0.0");
        }

        @Override
        public List<String> atHand() {
            return List.of("1.0.0");
        }
    }
}
