# E7, the paper's open problem (iv) (docs/protocol.md, "E7"): E6's char Transformers at more
# depths and a second width, on E6's corpora and training protocol. Its cells are E6's rules
# with a depth (`layers`) in their paths, which `lm_params` puts in the model; depth
# e6.model.layers is read from E6's own cells (a rule of E6's command and params would fetch
# their entries under E6's keys and set them aside for their other output paths).

E7 = config["e7"]
for cell in E7["cells"]:
    if cell["layers"] == config["e6"]["model"]["layers"]:
        raise WorkflowError(
            f"config e7.cells: layers {cell['layers']} is e6.model.layers: those cells are "
            "E6's own (E7 reads them); give other depths"
        )
    if cell["d_model"] % config["e6"]["model"]["heads"]:
        raise WorkflowError(
            f"config e7.cells: d_model {cell['d_model']} is not a multiple of "
            f"e6.model.heads = {config['e6']['model']['heads']}"
        )
if not set(E7["seeds"]) <= set(config["e6"]["seeds"]):
    raise WorkflowError(
        f"config e7.seeds: {sorted(set(E7['seeds']) - set(config['e6']['seeds']))} not in "
        "e6.seeds: E6's depth-2 cells of the same seeds stand beside E7's"
    )
# E6's depth-2 cells at every E7 width E6 trains
E7_SHALLOW = sorted({c["d_model"] for c in E7["cells"]} & set(config["e6"]["d_models"]))
E7_CELL = "{corpus}/L{layers}/d{d_model}/s{seed}"


wildcard_constraints:
    layers=r"\d+",


use rule train_lm_cells as train_e7_cells with:
    output:
        weights=f"results/cells/e7/{E7_CELL}.npz",
        metrics=f"results/cells/e7/{E7_CELL}.metrics.parquet",
        trajectory=f"results/cells/e7/{E7_CELL}.trajectory.parquet",
        record=record("train_e7_cells", E7_CELL),
    log:
        f"logs/train_e7_cells/{E7_CELL}.log",


use rule measure_lm_cells as measure_e7_cells with:
    input:
        metrics=rules.train_e7_cells.output.metrics,
        trajectory=rules.train_e7_cells.output.trajectory,
        weights=rules.train_e7_cells.output.weights,
    output:
        measures=f"results/measures/e7/{E7_CELL}.parquet",
        record=record("measure_e7_cells", E7_CELL),
    log:
        f"logs/measure_e7_cells/{E7_CELL}.log",


# every E7 cell's measures, then E6's depth-2 cells beside them
E7_MEASURES = [
    *[
        path
        for cell in E7["cells"]
        for path in expand(
            rules.measure_e7_cells.output.measures,
            corpus=sorted(config["e6"]["corpora"]),
            layers=cell["layers"],
            d_model=cell["d_model"],
            seed=sorted(E7["seeds"]),
        )
    ],
    *expand(
        rules.measure_lm_cells.output.measures,
        corpus=sorted(config["e6"]["corpora"]),
        d_model=E7_SHALLOW,
        seed=sorted(E7["seeds"]),
    ),
]


localrules:
    measure_e7_cells,
    aggregate_table7,


rule aggregate_table7:
    input:
        measures=E7_MEASURES,
    output:
        **tables(
            "../report/e7.rst",
            layers="results/tables/table7.parquet",
            stats="results/tables/table7_stats.parquet",
        ),
    log:
        "logs/aggregate_table7.log",
    benchmark:
        "results/benchmarks/aggregate_table7.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        code=code_digest("aggregate-table7"),
    shell:
        "entropic-bound aggregate-table7 --inputs {input.measures} --layers {output.layers}"
        " --stats {output.stats} > {log} 2>&1"


# in the default run, its claims and report (config e7.in_report: false leaves E7 out)
if E7["in_report"]:
    EXPERIMENT_TABLES.extend(parquets(rules.aggregate_table7.output))
    EXPERIMENT_FIGURES.append("table7")
    EXPERIMENT_EVIDENCE["e7_measures"] = E7_MEASURES
