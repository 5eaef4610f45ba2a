# E3: attention-native grid (Table 3). One dataset = (teacher, r*, seed).


rule make_e3_data:
    input:
        code=lib("teachers", "data", "atomic"),
    output:
        "results/data/e3/{teacher}/r{r_star}/s{seed}.npz",
    params:
        spec=lambda wc: as_json({
            "kind": wc.teacher, "r_star": int(wc.r_star), "seed": int(wc.seed),
            **{k: config["e3"][k] for k in ("T", "d", "n", "sigma", "spectrum")},
        }),
    log:
        "logs/make_e3_data/{teacher}/r{r_star}/s{seed}.log",
    shell:
        "entropic-bound make-data --params {params.spec:q} --out {output} > {log} 2>&1"


rule train_e3_cells:
    input:
        data=rules.make_e3_data.output[0],
        code=lib("grid", "students", "train", "data", "teachers", "atomic"),
    output:
        weights="results/cells/e3/{teacher}/r{r_star}/s{seed}.npz",
        metrics="results/cells/e3/{teacher}/r{r_star}/s{seed}.metrics.parquet",
    params:
        train=as_json({**config["e3"]["train"], "device": config["device"]}),
    threads: config["threads_per_job"]
    resources:
        gpu=1 if config["device"] == "cuda" else 0,
    log:
        "logs/train_e3_cells/{teacher}/r{r_star}/s{seed}.log",
    benchmark:
        "results/benchmarks/train_e3_cells/{teacher}/r{r_star}/s{seed}.tsv"
    shell:
        "entropic-bound train-grid --threads {threads} --params {params.train:q}"
        " --data {input.data} --weights {output.weights} --metrics {output.metrics}"
        " > {log} 2>&1"


rule measure_e3_cells:
    input:
        data=rules.make_e3_data.output[0],
        weights=rules.train_e3_cells.output.weights,
        metrics=rules.train_e3_cells.output.metrics,
        code=lib("measure", "spectra", "data", "atomic"),
    output:
        "results/measures/e3/{teacher}/r{r_star}/s{seed}.parquet",
    params:
        measure=as_json({"tol": config["spectra"]["tol"]}),
    log:
        "logs/measure_e3_cells/{teacher}/r{r_star}/s{seed}.log",
    shell:
        "entropic-bound measure-grid --params {params.measure:q} --data {input.data}"
        " --weights {input.weights} --metrics {input.metrics} --out {output} > {log} 2>&1"


rule aggregate_table3:
    input:
        measures=e3_datasets(rules.measure_e3_cells.output[0]),
        code=lib("tables", "atomic"),
    output:
        cells=report("results/tables/table3_cells.parquet", category="Table 3",
                     caption="../report/table3.rst"),
        sweep=report("results/tables/table3_sweep.parquet", category="Table 3",
                     caption="../report/table3.rst"),
        summary=report("results/tables/table3.parquet", category="Table 3",
                       caption="../report/table3.rst"),
    log:
        "logs/aggregate_table3.log",
    shell:
        "entropic-bound aggregate-table3 --inputs {input.measures} --cells {output.cells}"
        " --sweep {output.sweep} --summary {output.summary} > {log} 2>&1"
