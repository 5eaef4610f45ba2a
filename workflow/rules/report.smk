# Claims and the rendered report.

TABLES = [
    *parquets(rules.aggregate_table1.output),
    *parquets(rules.aggregate_table2.output),
    *parquets(rules.aggregate_table4.output),
    *parquets(rules.aggregate_table6.output),
    *expand(
        ["results/tables/{table}.parquet", "results/tables/{table}_sweep.parquet"],
        table=sorted(GRID_TABLES),
    ),
    *EXPERIMENT_TABLES,
]

# The per-cell tables of the grids (inputs of nothing downstream; targets of `all`).
GRID_CELL_TABLES = expand("results/tables/{table}_cells.parquet", table=sorted(GRID_TABLES))

# The per-cell evidence each claims table is built from (claims/evidence.py): the claims judge
# each verdict's firmness on it, the audit its verdict check (the claims with a recomputed
# entry in its place).
EVIDENCE = dict(
    grid_measures=[
        path
        for exp in sorted(GRID_TABLES.values())
        for path in grid_datasets(exp, rules.measure_grid_cells.output.measures)
    ],
    e1_measures=rules.aggregate_table1.input.measures,
    e1_estimates=rules.aggregate_table1.input.estimates,
    e2_measures=rules.aggregate_table2.input.measures,
    e4_estimates=rules.aggregate_table4.input.estimates,
    e6_measures=rules.aggregate_table6.input.measures,
    e6_trajectory=rules.aggregate_table6.input.trajectory,
    e6_data_side=rules.aggregate_table6.input.data_side,
    experiment_evidence=[path for paths in EXPERIMENT_EVIDENCE.values() for path in paths],
)
# The records of the jobs that turn a trained cell into evidence: inputs of the audit, so that
# those jobs have run and left their notes, by which its verdict check reruns them on a
# recomputed cell (audit/downstream.py).
MEASURE_RECORDS = [
    *[
        path
        for exp in sorted(GRID_TABLES.values())
        for path in grid_datasets(exp, rules.measure_grid_cells.output.record)
    ],
    *[
        path
        for fexp in ("e1", "e2")
        for path in fixed_datasets(fexp, rules.measure_fixed_cells.output.record)
    ],
    *e6_cells(rules.measure_lm_cells.output.record),
]
EVIDENCE_PARAMS = as_json(
    {
        "e1_operator": config["e1"]["operator"],
        "e2_operator": config["e2"]["operator"],
        "h1_margin": config["e6"]["h1_margin"],
        "grid_tables": GRID_TABLES,
    }
)
EVIDENCE_ARGS = "".join(
    f" --{name.replace('_', '-')} {{input.{name}}}"
    for name in EVIDENCE
    if name != "experiment_evidence"
)
# the experiments' own evidence, each file named by its frame (--experiment-evidence NAME=FILE)
if EXPERIMENT_EVIDENCE:
    EVIDENCE_ARGS += " --experiment-evidence " + " ".join(
        shlex.quote(f"{name}={path}")
        for name, paths in EXPERIMENT_EVIDENCE.items()
        for path in paths
    )

# The published study of the verdicts across machines (report/machine/, in git)
MACHINE_STUDY = ["report/machine/claims.csv", "report/machine/study.json"]
MACHINE_STUDY_TABLES = ["report/machine/cells.csv", "report/machine/tables.csv"]

# Paper tables with a figure; each has its caption in workflow/report/figure_<table>.rst.
FIGURES = [
    "table1",
    "table2",
    "table4",
    *sorted(GRID_TABLES),
    "table6",
    "table6-training",
    *EXPERIMENT_FIGURES,
]


rule evaluate_claims:
    input:
        **EVIDENCE,
        tables=TABLES,
        # the published machine study (entropic-bound machine-study), part of the workflow
        machine=MACHINE_STUDY,
    output:
        **tables("../report/claims.rst", category="Claims", out="results/tables/claims.parquet"),
    log:
        "logs/evaluate_claims.log",
    benchmark:
        "results/benchmarks/evaluate_claims.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    # each table's firmness is judged in a process of its own: as many at once as cores
    threads: workflow.cores
    params:
        code=code_digest("claims"),
        evidence=EVIDENCE_PARAMS,
    shell:
        "entropic-bound claims --tables {input.tables} --params {params.evidence:q}"
        + EVIDENCE_ARGS
        + " --machine-study report/machine --jobs {threads} --out {output.out} > {log} 2>&1"


# The audit: stored entries of this run, drawn per experiment, recomputed and compared with
# the store, and the claims judged with each recomputed entry in place of the stored one; the
# report prints the outcomes (a difference is shown there, not a failed job).
rule audit_store:
    input:
        **EVIDENCE,
        tables=TABLES,
        measure_records=MEASURE_RECORDS,
    output:
        **tables("../report/audit.rst", category="Audit", out="results/tables/audit.parquet"),
    log:
        "logs/audit_store.log",
    benchmark:
        "results/benchmarks/audit_store.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    # each recomputation is a one-thread process of its own: as many at once as cores
    threads: workflow.cores
    params:
        code=code_digest("audit"),
        per_experiment=config["audit"]["per_experiment"],
        seed=config["audit"]["seed"],
        budget=config["audit"]["budget_seconds"],
        evidence=EVIDENCE_PARAMS,
        store=config["store"],
    shell:
        "entropic-bound audit {params.per_experiment} --per-experiment --seed {params.seed}"
        " --budget-seconds {params.budget} --jobs {threads} --params {params.evidence:q}"
        " --store {params.store:q}"
        + EVIDENCE_ARGS
        + " --out {output.out} --exit-zero > {log} 2>&1"


rule render_report:
    input:
        tables=TABLES,
        audit=rules.audit_store.output[0],
        claims=rules.evaluate_claims.output[0],
        templates=["report/templates/report.md.j2", "report/templates/report.html.j2"],
        paper_config="config.yaml",
        schema="src/entropic_bound/config.schema.yaml",
        machine=[*MACHINE_STUDY, *MACHINE_STUDY_TABLES],
        captions=expand("workflow/report/figure_{table}.rst", table=FIGURES),
    output:
        markdown="report/out/report.md",
        html=report("report/out/report.html", category="Report", caption="../report/report.rst"),
        # One caption per figure (workflow/report/figure_<table>.rst) says what it shows.
        figures=[
            report(
                f"report/out/{table}.png",
                category="Figures",
                caption=f"../report/figure_{table}.rst",
            )
            for table in FIGURES
        ],
    log:
        "logs/render_report.log",
    benchmark:
        "results/benchmarks/render_report.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        code=code_digest("render-report"),
        protocol=as_json(config),
    shell:
        "entropic-bound render-report --params {params.protocol:q}"
        " --tables {input.tables} {input.audit}"
        " --claims {input.claims} --templates report/templates --markdown {output.markdown}"
        " --html {output.html} --paper-config {input.paper_config} --schema {input.schema}"
        " --captions workflow/report --machine-study report/machine"
        " > {log} 2>&1"


# The published snapshot (not part of `all`): `snakemake --cores all report/paper` after a
# complete run at the paper's settings; then `python -m entropic_bound.reporting.snapshot
# --readme README.md --results docs/results.md report/paper` writes its summaries into the
# README and the results page (a rule writes no tracked page), and all three are committed.
rule snapshot:
    input:
        tables=[*TABLES, rules.audit_store.output[0]],
        claims=rules.evaluate_claims.output[0],
        report=rules.render_report.output,
    output:
        directory("report/paper"),
    log:
        "logs/snapshot.log",
    benchmark:
        "results/benchmarks/snapshot.tsv"
    conda:
        "../../envs/entropic-bound.yaml"
    params:
        code=code_digest("snapshot"),
        protocol=as_json(config),
    shell:
        "entropic-bound snapshot --params {params.protocol:q} --out {output}"
        " --what 'the whole paper at the settings of this run'"
        " --command 'snakemake --cores all && snakemake --cores all report/paper'"
        " --tables {input.tables} {input.claims} --report-dir report/out > {log} 2>&1"
