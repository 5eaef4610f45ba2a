# E4: data-only predictability (Table 4) on the cached E3 datasets (nothing is regenerated)
# and on the robustness settings of e4.settings (generated here, never trained).


rule estimate_e4_data:
    input:
        data=rules.make_grid_data.output[0],
    output:
        estimates="results/estimates/{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}.parquet",
        record=record("estimate_e4_data", "{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}"),
    log:
        "logs/estimate_e4_data/{exp}/{teacher}/{spectrum}/r{r_star}/s{seed}.log",
    conda:
        "../../envs/entropic-bound.yaml"
    resources:
        mem_mb=dataset_mem_mb(800, grid_section),
    params:
        **stored(
            "entropic-bound estimate-e4 --spec {params.spec:q} --record {output.record}"
            " --params {params.e4:q} --data {input.data} --out {output.estimates}",
            given={"spec": grid_spec},
            keyed={"data": teacher_job(grid_spec)},
            e4=lambda wc: as_json(
                {
                    "setting": wc.exp,
                    "iterations": config["e4"]["als_iterations"],
                    "shrinkage": config["e4"]["shrinkage"],
                    "eps": config["e4"]["eps"],
                    "tol": config["spectra"]["tol"],
                    "heldout_fraction": config["e4"]["heldout_fraction"],
                    "z_crit": config["e4"]["z_crit"],
                    "fit_iterations": config["e4"]["fit_iterations"],
                }
            ),
        ),
    shell:
        STORED


rule aggregate_table4:
    input:
        estimates=e4_datasets(rules.estimate_e4_data.output[0]),
    output:
        **tables(
            "../report/predict.rst",
            summary="results/tables/table4_predictability.parquet",
            scores="results/tables/table4_scores.parquet",
        ),
    log:
        "logs/aggregate_table4.log",
    benchmark:
        "results/benchmarks/aggregate_table4.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        code=code_digest("aggregate-table4"),
    shell:
        "entropic-bound aggregate-table4 --inputs {input.estimates} --summary {output.summary}"
        " --scores {output.scores} > {log} 2>&1"
