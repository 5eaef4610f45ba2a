# Fixed-operator task: E1 (linear surrogate, Table 1) and E2 (interpolation ladder, Table 2).
# One dataset per (experiment, operator, seed); one training job trains all of its students.
# The config's `operator` is the paper's reading (Tables 1-2); `operator_variants` are
# sensitivity datasets, trained at r = r* only.


rule make_fixed_data:
    output:
        "results/data/{fexp}/{operator}/s{seed}.npz",
    log:
        "logs/make_fixed_data/{fexp}/{operator}/s{seed}.log",
    benchmark:
        "results/benchmarks/make_fixed_data/{fexp}/{operator}/s{seed}.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    resources:
        mem_mb=dataset_mem_mb(200, fixed_section),
    params:
        code=code_digest("make-data"),
        spec=fixed_spec,
    shell:
        MAKE_DATA


rule train_fixed_cells:
    input:
        data=rules.make_fixed_data.output[0],
    output:
        weights="results/cells/{fexp}/{operator}/s{seed}.npz",
        metrics="results/cells/{fexp}/{operator}/s{seed}.metrics.parquet",
        record=record("train_fixed_cells", "{fexp}/{operator}/s{seed}"),
    log:
        "logs/train_fixed_cells/{fexp}/{operator}/s{seed}.log",
    conda:
        "../../envs/entropic-bound.yaml"
    threads: config["threads_per_job"]
    resources:
        mem_mb=dataset_mem_mb(800, fixed_section),
        gpu=1 if DEVICE == "cuda" else 0,
    params:
        **stored(
            "entropic-bound train-fixed --spec {params.spec:q} --record {output.record}"
            " --threads {threads} --params {params.train:q}"
            " --data {input.data} --weights {output.weights} --metrics {output.metrics}",
            given={"spec": fixed_spec},
            keyed={"data": teacher_job(fixed_spec)},
            train=lambda wc: as_json(
                {
                    **config[wc.fexp]["train"],
                    "experiment": wc.fexp,
                    "device": DEVICE,
                    "overparam": wc.operator == config[wc.fexp]["operator"],
                }
            ),
        ),
    shell:
        STORED


rule measure_fixed_cells:
    input:
        data=rules.make_fixed_data.output[0],
        weights=rules.train_fixed_cells.output.weights,
        metrics=rules.train_fixed_cells.output.metrics,
    output:
        measures="results/measures/{fexp}/{operator}/s{seed}.parquet",
        record=record("measure_fixed_cells", "{fexp}/{operator}/s{seed}"),
    log:
        "logs/measure_fixed_cells/{fexp}/{operator}/s{seed}.log",
    conda:
        "../../envs/entropic-bound.yaml"
    threads: 1
    resources:
        mem_mb=dataset_mem_mb(300, fixed_section),
    params:
        **stored(
            "entropic-bound measure-fixed --spec {params.spec:q} --record {output.record}"
            " --threads {threads} --params {params.measure:q}"
            " --data {input.data} --weights {input.weights} --metrics {input.metrics}"
            " --out {output.measures}",
            measure=as_json({"tol": config["spectra"]["tol"]}),
            given={"spec": fixed_spec},
            keyed={"data": teacher_job(fixed_spec)},
        ),
    shell:
        STORED


rule estimate_e1_data:
    input:
        data="results/data/e1/{operator}/s{seed}.npz",
    output:
        estimates="results/estimates/e1/{operator}/s{seed}.parquet",
        record=record("estimate_e1_data", "{operator}/s{seed}"),
    log:
        "logs/estimate_e1_data/{operator}/s{seed}.log",
    conda:
        "../../envs/entropic-bound.yaml"
    resources:
        mem_mb=dataset_mem_mb(800, lambda wc: config["e1"]),
    params:
        **stored(
            "entropic-bound estimate-fixed --spec {params.spec:q} --record {output.record}"
            " --params {params.measure:q} --data {input.data} --out {output.estimates}",
            measure=as_json({"tol": config["spectra"]["tol"]}),
            given={"spec": lambda wc: fixed_spec(wc, "e1")},
            keyed={"data": teacher_job(lambda wc: fixed_spec(wc, "e1"))},
        ),
    shell:
        STORED


rule aggregate_table1:
    input:
        measures=fixed_datasets("e1", rules.measure_fixed_cells.output[0]),
        estimates=fixed_datasets("e1", rules.estimate_e1_data.output[0]),
    output:
        **tables(
            "../report/fixed.rst",
            sweep="results/tables/table1_sweep.parquet",
            summary="results/tables/table1.parquet",
        ),
    log:
        "logs/aggregate_table1.log",
    benchmark:
        "results/benchmarks/aggregate_table1.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        code=code_digest("aggregate-table1"),
        primary=as_json({"operator": config["e1"]["operator"]}),
    shell:
        "entropic-bound aggregate-table1 --params {params.primary:q} --inputs {input.measures}"
        " --estimates {input.estimates} --sweep {output.sweep} --summary {output.summary}"
        " > {log} 2>&1"


rule aggregate_table2:
    input:
        measures=fixed_datasets("e2", rules.measure_fixed_cells.output[0]),
    output:
        **tables(
            "../report/fixed.rst",
            summary="results/tables/table2.parquet",
        ),
    log:
        "logs/aggregate_table2.log",
    benchmark:
        "results/benchmarks/aggregate_table2.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        code=code_digest("aggregate-table2"),
        primary=as_json({"operator": config["e2"]["operator"]}),
    shell:
        "entropic-bound aggregate-table2 --params {params.primary:q} --inputs {input.measures}"
        " --summary {output.summary}"
        " > {log} 2>&1"
