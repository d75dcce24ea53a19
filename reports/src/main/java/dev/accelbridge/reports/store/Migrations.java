package dev.accelbridge.reports.store;

import java.util.List;
import java.util.Set;

/**
 * The store's schema, as an ordered list of migrations. Migration {@code n} takes a store from version
 * {@code n-1} to {@code n}; {@link MatrixStore} applies the missing ones in order, each in its own transaction,
 * and records every applied version in {@code schema_version}. A new schema version appends a migration here
 * (never edits an old one) and, when the export format changes with it, a step in {@link StoreExport}.
 */
final class Migrations {
    /** The schema version this build writes. */
    static final int CURRENT = 15;

    /** Every table any version of our schema has; a database with other tables is not ours. */
    static final Set<String> KNOWN_TABLES = Set.of("schema_version", "runs", "hosts", "probes", "results", "samples", "models");

    private Migrations() {
    }

    /** One step. */
    record Migration(int toVersion, String description, List<String> statements) {
    }

    static final List<Migration> ALL = List.of(
            new Migration(1, "initial matrix schema", List.of(
                    "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description VARCHAR, applied_at TIMESTAMP)",
                    """
                    CREATE TABLE hosts (
                      fingerprint VARCHAR PRIMARY KEY,
                      hostname VARCHAR,
                      detect VARCHAR,
                      first_seen TIMESTAMP,
                      last_seen TIMESTAMP)""",
                    """
                    CREATE TABLE runs (
                      run_id VARCHAR PRIMARY KEY,
                      started_at TIMESTAMP NOT NULL,
                      finished_at TIMESTAMP,
                      status VARCHAR NOT NULL,
                      host_fingerprint VARCHAR,
                      toolkit_version VARCHAR,
                      runtime_versions VARCHAR,
                      plan VARCHAR)""",
                    """
                    CREATE TABLE probes (
                      run_id VARCHAR NOT NULL,
                      backend VARCHAR NOT NULL,
                      probe_where VARCHAR,
                      available BOOLEAN NOT NULL,
                      evidence VARCHAR)""",
                    "CREATE SEQUENCE result_id_seq START 1",
                    """
                    CREATE TABLE results (
                      id BIGINT PRIMARY KEY DEFAULT nextval('result_id_seq'),
                      run_id VARCHAR NOT NULL,
                      case_key VARCHAR NOT NULL,
                      suite VARCHAR NOT NULL,
                      model VARCHAR NOT NULL,
                      input_set VARCHAR,
                      model_sha256 VARCHAR,
                      requested VARCHAR NOT NULL,
                      actual VARCHAR,
                      status VARCHAR NOT NULL,
                      reason VARCHAR,
                      browser VARCHAR,
                      browser_version VARCHAR,
                      driver VARCHAR,
                      adapter VARCHAR,
                      software_adapter BOOLEAN,
                      host VARCHAR,
                      host_fingerprint VARCHAR,
                      os VARCHAR,
                      load_ms DOUBLE,
                      first_ms DOUBLE,
                      p50_ms DOUBLE,
                      p90_ms DOUBLE,
                      p99_ms DOUBLE,
                      mean_ms DOUBLE,
                      stddev_ms DOUBLE,
                      throughput_per_sec DOUBLE,
                      iterations INTEGER,
                      warmups INTEGER,
                      rss_before BIGINT,
                      rss_after BIGINT,
                      rss_peak BIGINT,
                      max_abs_err DOUBLE,
                      max_rel_err DOUBLE,
                      cosine DOUBLE,
                      tolerance DOUBLE,
                      parity_within BOOLEAN,
                      parity_against VARCHAR,
                      fallback_path VARCHAR,
                      warnings VARCHAR,
                      provenance VARCHAR,
                      started_at TIMESTAMP)""",
                    "CREATE INDEX results_run ON results(run_id)",
                    "CREATE TABLE samples (result_id BIGINT NOT NULL, idx INTEGER NOT NULL, ms DOUBLE NOT NULL)")),
            // v2: the case identity (dev.accelbridge.core.CaseId) is its own columns; the v1 string key goes, so no
            // second spelling of the key can drift from the record. Old rows keep their lane (their browser name or
            // native), precision fp32, batch 1, and no recorded shapes.
            new Migration(2, "case identity columns: input_shapes, precision, batch_size, lane; parity non_finite", List.of(
                    "ALTER TABLE results ADD COLUMN input_shapes VARCHAR",
                    "ALTER TABLE results ADD COLUMN precision VARCHAR DEFAULT 'fp32'",
                    "ALTER TABLE results ADD COLUMN batch_size INTEGER DEFAULT 1",
                    "ALTER TABLE results ADD COLUMN lane VARCHAR",
                    "ALTER TABLE results ADD COLUMN non_finite BIGINT DEFAULT 0",
                    "UPDATE results SET lane = coalesce(browser, 'native'), precision = 'fp32', batch_size = 1, non_finite = 0",
                    // DuckDB refuses to drop a column of a table that has an index: drop it, then re-create it
                    "DROP INDEX results_run",
                    "ALTER TABLE results DROP COLUMN case_key",
                    "CREATE INDEX results_run ON results(run_id)")),
            // v3: which tolerance an output was judged by (onnxruntime-web's absolute-or-relative rule); old rows were
            // judged by an absolute bound alone
            new Migration(3, "tolerance: relative bound, budget used, basis", List.of(
                    "ALTER TABLE results ADD COLUMN rtol DOUBLE DEFAULT 0",
                    "ALTER TABLE results ADD COLUMN tolerance_budget DOUBLE",
                    "ALTER TABLE results ADD COLUMN tolerance_basis VARCHAR",
                    "UPDATE results SET rtol = 0, tolerance_budget = CASE WHEN tolerance > 0 THEN max_abs_err / tolerance END")),
            // v4: what each model file is (by its sha256): the op types its graph uses, so a report can group single-op
            // models (ONNX backend node tests) by op into a conformance view
            new Migration(4, "models: op types and opset per model file", List.of(
                    """
                    CREATE TABLE models (
                      sha256 VARCHAR PRIMARY KEY,
                      name VARCHAR,
                      opset BIGINT,
                      ops VARCHAR)""")),
            // v5: an fp16/int8 variant is judged against the fp32 reference and also compared with its own native CPU
            // run; that second comparison is kept in the one JSON form of a parity
            new Migration(5, "variant_parity: a variant's outputs against its own native CPU run", List.of(
                    "ALTER TABLE results ADD COLUMN variant_parity VARCHAR")),
            // v6: a case's drill-down (bisection, op profile, cold start, leak check) in the one JSON form of AnalysisJson
            new Migration(6, "analysis: bisection, op profile, cold start and re-creation leak check", List.of(
                    "ALTER TABLE results ADD COLUMN analysis VARCHAR")),
            // v7: --retries: how many attempts a case took and why the earlier ones failed (a pass on a re-run is flaky)
            new Migration(7, "attempts: re-runs of a FAILED case and the reasons of the failed attempts", List.of(
                    "ALTER TABLE results ADD COLUMN attempts INTEGER DEFAULT 1",
                    "ALTER TABLE results ADD COLUMN earlier_attempts VARCHAR",
                    "UPDATE results SET attempts = 1")),
            new Migration(8, "figures with their uncertainty: each result's sample quality, each run's own time account", List.of(
                    "ALTER TABLE results ADD COLUMN quality VARCHAR",
                    // the percentile rule applied to what was stored before it (SampleStats.samplesNeeded: 36, 368)
                    "UPDATE results SET p90_ms = NULL WHERE iterations < 36",
                    "UPDATE results SET p99_ms = NULL WHERE iterations < 368",
                    "ALTER TABLE runs ADD COLUMN account VARCHAR")),
            // v9: where a case ran is part of its identity with its versions: the browser's major version and
            // the runtime's (onnxruntime-web in a browser, ONNX Runtime natively). Older rows take what their provenance
            // recorded, so their cells go on with the same versions' new results.
            new Migration(9, "lane versions: browser major, onnxruntime-web and ONNX Runtime versions as case dimensions", List.of(
                    "ALTER TABLE results ADD COLUMN browser_major VARCHAR",
                    "ALTER TABLE results ADD COLUMN ort_web_version VARCHAR",
                    "ALTER TABLE results ADD COLUMN ort_version VARCHAR",
                    """
                    UPDATE results SET
                      browser_major = CASE WHEN lane <> 'native' THEN nullif(regexp_extract(browser_version, '^[0-9]+'), '') END,
                      ort_web_version = CASE WHEN lane <> 'native'
                        THEN json_extract_string(provenance, '$.runtimeVersions."onnxruntime-web"') END,
                      ort_version = CASE WHEN lane = 'native' THEN json_extract_string(provenance, '$.runtimeVersions.onnxruntime') END""")),
            // v10: generation: what a case does is part of its identity (one forward pass, or greedy tokens after a prompt),
            // and a generation's figures (TTFT, inter-token latencies, tokens/s, the cold generation, the KV cache) are kept
            // in the one JSON form of DecodingForm. Every older row was one forward pass.
            new Migration(10, "scenario: single pass or generation; decoding: a generation's figures", List.of(
                    "ALTER TABLE results ADD COLUMN scenario VARCHAR DEFAULT 'single-pass'",
                    "UPDATE results SET scenario = 'single-pass' WHERE scenario IS NULL",
                    "ALTER TABLE results ADD COLUMN decoding VARCHAR")),
            // v11: the ONNX Runtime session options a case ran with (outputs left on the GPU, the optimization level) are part
            // of its identity; every older row ran with the defaults.
            new Migration(11, "runtime_options: the session options that differ from the defaults", List.of(
                    "ALTER TABLE results ADD COLUMN runtime_options VARCHAR DEFAULT 'default'",
                    "UPDATE results SET runtime_options = 'default' WHERE runtime_options IS NULL")),
            // v12: a fallback that landed on a backend its lane measured for the same case is judged on that measurement,
            // not run again: its figures are the measured cell's (RunResult.figuresOf). Every older row measured its own.
            new Migration(12, "shared_figures: a fallback's figures are the same work measured by another cell of its lane", List.of(
                    "ALTER TABLE results ADD COLUMN shared_figures BOOLEAN DEFAULT false",
                    "UPDATE results SET shared_figures = false WHERE shared_figures IS NULL")),
            // v13: memory beyond the resident figures (the page's GPU ledger, the WebAssembly and JS heaps, the browser's
            // processes by type, each with its source), in the one JSON form of MemoryForm. No older row measured them:
            // they stay unknown (null), never 0.
            new Migration(13, "memory_detail: GPU ledger, heaps and processes by type", List.of(
                    "ALTER TABLE results ADD COLUMN memory_detail VARCHAR")),
            // v14: what one inference of a model costs (its FLOPs a item where Accelbridge authored it, its weights' bytes),
            // for a figure's place under its device's roof. Models recorded before it: unknown (null), never 0.
            new Migration(14, "models: FLOPs a item and weight bytes", List.of(
                    "ALTER TABLE models ADD COLUMN flops_per_item DOUBLE",
                    "ALTER TABLE models ADD COLUMN weight_bytes BIGINT")),
            // v15: a row's outcome is a column of its own (Outcome.Kind), written by the code that knew it; reading a row no
            // longer infers it from which columns are null. Older rows take the kind their columns held, read the one way
            // older code read them (a backend and timings: ran; a backend alone: stopped; timings alone: unplaced).
            new Migration(15, "outcome: whether and where a case ran, as its kind", List.of(
                    "ALTER TABLE results ADD COLUMN outcome VARCHAR",
                    ImportedOutcome.SQL_UPDATE)));
}
