# E4: data-only predictability (Table 4) on the cached E3 datasets; nothing is regenerated.


rule estimate_e4_data:
    input:
        data="results/data/e3/{teacher}/sharp/r{r_star}/s{seed}.npz",
        code=lib("estimate-e4"),
    output:
        "results/estimates/e4/{teacher}/r{r_star}/s{seed}.parquet",
    log:
        "logs/estimate_e4_data/{teacher}/r{r_star}/s{seed}.log",
    benchmark:
        "results/benchmarks/estimate_e4_data/{teacher}/r{r_star}/s{seed}.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        e4=as_json(
            {
                "iterations": config["e4"]["als_iterations"],
                "shrinkage": config["e4"]["shrinkage"],
                "eps": config["e4"]["eps"],
                "tol": config["spectra"]["tol"],
            }
        ),
    shell:
        "entropic-bound estimate-e4 --params {params.e4:q} --data {input.data} --out {output}"
        " > {log} 2>&1"


rule aggregate_table4:
    input:
        estimates=expand(
            rules.estimate_e4_data.output[0],
            teacher=config["e3"]["teachers"],
            r_star=sorted(config["e3"]["r_stars"]),
            seed=sorted(config["e4"]["seeds"] or config["e3"]["seeds"]),
        ),
        code=lib("aggregate-table4"),
    output:
        summary=report(
            "results/tables/table4_predictability.parquet",
            category="Tables",
            caption="../report/predict.rst",
        ),
        scores=report(
            "results/tables/table4_scores.parquet",
            category="Tables",
            caption="../report/predict.rst",
        ),
    log:
        "logs/aggregate_table4.log",
    conda:
        "../../envs/entropic-bound.yaml"
    shell:
        "entropic-bound aggregate-table4 --inputs {input.estimates} --summary {output.summary}"
        " --scores {output.scores} > {log} 2>&1"
