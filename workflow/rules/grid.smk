# Attention-native grids: E3 (Table 3) and E5 (Table 5). One dataset = (teacher, spectrum, r*,
# seed) of one experiment; one training job per dataset trains its whole rank sweep and the
# recovery student; one measurement job per dataset.


rule make_grid_data:
    output:
        "results/data/{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}.npz",
    log:
        "logs/make_grid_data/{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}.log",
    benchmark:
        "results/benchmarks/make_grid_data/{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    resources:
        mem_mb=dataset_mem_mb(200, grid_section),
    params:
        code=code_digest("make-data"),
        spec=grid_spec,
    shell:
        MAKE_DATA


rule train_grid_cells:
    input:
        data=rules.make_grid_data.output[0],
    output:
        weights="results/cells/{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}.npz",
        metrics="results/cells/{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}.metrics.parquet",
        record=record("train_grid_cells", "{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}"),
    log:
        "logs/train_grid_cells/{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}.log",
    conda:
        "../../envs/entropic-bound.yaml"
    threads: config["threads_per_job"]
    resources:
        mem_mb=dataset_mem_mb(800, grid_section),
        gpu=1 if DEVICE == "cuda" else 0,
    params:
        **stored(
            "entropic-bound train-grid --spec {params.spec:q} --record {output.record}"
            " --threads {threads} --params {params.train:q}"
            " --data {input.data} --weights {output.weights} --metrics {output.metrics}",
            train=lambda wc: as_json({**config[wc.exp]["train"], "device": DEVICE}),
            given={"spec": grid_spec},
            keyed={"data": teacher_job(grid_spec)},
        ),
    shell:
        STORED


rule measure_grid_cells:
    input:
        data=rules.make_grid_data.output[0],
        weights=rules.train_grid_cells.output.weights,
        metrics=rules.train_grid_cells.output.metrics,
    output:
        measures="results/measures/{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}.parquet",
        record=record("measure_grid_cells", "{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}"),
    log:
        "logs/measure_grid_cells/{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}.log",
    conda:
        "../../envs/entropic-bound.yaml"
    resources:
        mem_mb=dataset_mem_mb(300, grid_section),
    params:
        **stored(
            "entropic-bound measure-grid --spec {params.spec:q} --record {output.record}"
            " --params {params.measure:q} --data {input.data}"
            " --weights {input.weights} --metrics {input.metrics} --out {output.measures}",
            measure=as_json({"tol": config["spectra"]["tol"]}),
            given={"spec": grid_spec},
            keyed={"data": teacher_job(grid_spec)},
        ),
    shell:
        STORED


rule aggregate_grid:
    input:
        measures=lambda wc: grid_datasets(GRID_TABLES[wc.table], rules.measure_grid_cells.output[0]),
    output:
        **tables(
            "../report/grid.rst",
            cells="results/tables/{table}_cells.parquet",
            sweep="results/tables/{table}_sweep.parquet",
            summary="results/tables/{table}.parquet",
        ),
    log:
        "logs/aggregate_grid/{table}.log",
    benchmark:
        "results/benchmarks/aggregate_grid/{table}.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        code=code_digest("aggregate-grid"),
    shell:
        "entropic-bound aggregate-grid --inputs {input.measures} --cells {output.cells}"
        " --sweep {output.sweep} --summary {output.summary} > {log} 2>&1"
