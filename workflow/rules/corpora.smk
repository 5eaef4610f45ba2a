# Real-corpus diagnostics, App. B (E6): fetch and tokenize each char corpus once, train one LM
# per (corpus, d_model, seed), measure its heads, compute the data side per corpus, aggregate.


rule fetch_corpus:
    # No code (code=False): the text is pinned by its sha256 (the lock's `corpus:<name>`, a
    # param), so an edit of the fetch code cannot change it, and the pin, not the code, keys
    # every job downstream. Stored: a machine whose registry moved on still gets the pinned text.
    output:
        text="results/corpora/{corpus}/text.txt",
        provenance="results/corpora/{corpus}/provenance.json",
        record=record("fetch_corpus", "{corpus}"),
    log:
        "logs/fetch_corpus/{corpus}.log",
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        **stored(
            "entropic-bound fetch-corpus --params {params.fetch:q} --record {output.record}"
            " --text {output.text} --provenance {output.provenance}",
            code=False,
            # a stored text must be the one corpora.lock.json pins (none before its first fetch)
            expect=lambda wc: pinned_text(config["e6"]["lock_file"], wc.corpus),
            # Only this corpus's sources: editing another corpus's list refetches nothing here.
            fetch=lambda wc: as_json(
                {
                    "corpus": wc.corpus,
                    "sources": config["e6"]["corpora"][wc.corpus],
                    "pin": corpus_pin(config["e6"]["lock_file"], wc.corpus),
                    "cache": config["e6"]["download_cache"],
                    "lock": config["e6"]["lock_file"],
                    "max_replaced_fraction": config["e6"]["max_replaced_fraction"],
                }
            ),
        ),
    shell:
        STORED


rule tokenize_corpus:
    input:
        text=rules.fetch_corpus.output.text,
        provenance=rules.fetch_corpus.output.provenance,
    output:
        tokens="results/corpora/{corpus}/tokens.npz",
        meta="results/corpora/{corpus}/meta.json",
    log:
        "logs/tokenize_corpus/{corpus}.log",
    benchmark:
        "results/benchmarks/tokenize_corpus/{corpus}.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        **stored(
            "entropic-bound tokenize-corpus --params {params.tok:q} --text {input.text}"
            " --provenance {input.provenance} --tokens {output.tokens} --meta {output.meta}",
            keep="realisation",
            tok=as_json(
                {
                    **{k: config["e6"][k] for k in ("max_chars", "val_fraction")},
                    "context": config["e6"]["model"]["context"],
                    "max_heldout_overlap": config["e6"]["max_heldout_overlap"],
                }
            ),
        ),
    shell:
        STORED


rule corpus_stats:
    input:
        **rules.tokenize_corpus.output,
    output:
        "results/measures/e6/data_side/{corpus}.parquet",
    log:
        "logs/corpus_stats/{corpus}.log",
    benchmark:
        "results/benchmarks/corpus_stats/{corpus}.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        code=code_digest("corpus-stats"),
        stats=lambda wc: as_json(
            {
                **config["e6"]["data_side"],
                "corpus": wc.corpus,
                "max_lag": config["e6"]["model"]["context"],
                "tol": config["spectra"]["tol"],
            }
        ),
    shell:
        "entropic-bound corpus-stats --params {params.stats:q} --tokens {input.tokens}"
        " --meta {input.meta} --out {output} > {log} 2>&1"


rule train_lm_cells:
    input:
        **rules.tokenize_corpus.output,
    output:
        weights="results/cells/e6/{corpus}/d{d_model}/s{seed}.npz",
        metrics="results/cells/e6/{corpus}/d{d_model}/s{seed}.metrics.parquet",
        trajectory="results/cells/e6/{corpus}/d{d_model}/s{seed}.trajectory.parquet",
        record=record("train_lm_cells", "{corpus}/d{d_model}/s{seed}"),
    log:
        "logs/train_lm_cells/{corpus}/d{d_model}/s{seed}.log",
    conda:
        "../../envs/entropic-bound.yaml"
    threads: config["threads_per_job"]
    resources:
        gpu=1 if DEVICE == "cuda" else 0,
    params:
        **stored(
            "entropic-bound train-lm --threads {threads} --params {params.lm:q}"
            " --record {output.record} --tokens {input.tokens} --meta {input.meta}"
            " --weights {output.weights} --metrics {output.metrics}"
            " --trajectory {output.trajectory} --weights-dtype float16",
            lm=lambda wc: lm_params(wc, DEVICE),
        ),
    shell:
        STORED


rule measure_lm_cells:
    input:
        metrics=rules.train_lm_cells.output.metrics,
        trajectory=rules.train_lm_cells.output.trajectory,
        weights=rules.train_lm_cells.output.weights,
    output:
        measures="results/measures/e6/{corpus}/d{d_model}/s{seed}.parquet",
        # not stored (it only assembles what training measured), but recorded like the
        # measures of E1-E5: the audit reruns it below a recomputed cell (audit.downstream)
        record=record("measure_lm_cells", "{corpus}/d{d_model}/s{seed}"),
    log:
        "logs/measure_lm_cells/{corpus}/d{d_model}/s{seed}.log",
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        **stored(
            "entropic-bound measure-lm --params {params.cell:q} --record {output.record}"
            " --metrics {input.metrics} --trajectory {input.trajectory} --weights {input.weights}"
            " --out {output.measures}",
            keep="note",
            cell=lambda wc: as_json(
                {"corpus": wc.corpus, "d_model": int(wc.d_model), "seed": int(wc.seed)}
            ),
        ),
    shell:
        STORED


rule aggregate_table6:
    input:
        measures=e6_cells(rules.measure_lm_cells.output[0]),
        trajectory=e6_cells(rules.train_lm_cells.output.trajectory),
        data_side=e6_corpora(rules.corpus_stats.output[0]),
        provenance=e6_corpora(rules.fetch_corpus.output.provenance),
    output:
        **tables(
            "../report/table6.rst",
            cells="results/tables/table6.parquet",
            layers="results/tables/table6_layers.parquet",
            stats="results/tables/table6_stats.parquet",
            corpora="results/tables/table6_corpora.parquet",
            trajectory="results/tables/table6_trajectory.parquet",
        ),
    log:
        "logs/aggregate_table6.log",
    benchmark:
        "results/benchmarks/aggregate_table6.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        code=code_digest("aggregate-table6"),
        h1_margin=config["e6"]["h1_margin"],
    shell:
        "entropic-bound aggregate-table6 --inputs {input.measures}"
        " --trajectory-inputs {input.trajectory} --h1-margin {params.h1_margin}"
        " --data-side {input.data_side} --provenance {input.provenance} --cells {output.cells}"
        " --layers {output.layers} --stats {output.stats} --corpora {output.corpora}"
        " --trajectory {output.trajectory} > {log} 2>&1"
