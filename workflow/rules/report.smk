# Claims and the rendered report.

TABLES = [
    *rules.aggregate_table1.output,
    *rules.aggregate_table2.output,
    *rules.aggregate_table4.output,
    *rules.aggregate_table6.output,
    *expand(["results/tables/{table}.parquet", "results/tables/{table}_sweep.parquet"],
            table=sorted(GRID_TABLES)),
]


rule evaluate_claims:
    input:
        tables=TABLES,
        code=lib("claims", "published", "atomic"),
    output:
        report("results/tables/claims.parquet", category="Claims",
               caption="../report/claims.rst"),
    conda:
        "../../envs/entropic-bound.yaml"
    log:
        "logs/evaluate_claims.log",
    shell:
        "entropic-bound claims --tables {input.tables} --out {output} > {log} 2>&1"


rule render_report:
    input:
        tables=TABLES,
        claims=rules.evaluate_claims.output[0],
        templates=["report/templates/report.md.j2", "report/templates/report.html.j2"],
        paper_config="config.yaml",
        code=lib("report", "claims", "published", "atomic"),
    output:
        markdown="report/out/report.md",
        html=report("report/out/report.html", category="Report",
                    caption="../report/report.rst"),
        figures=report(expand("report/out/{table}.png", table=["table1", "table2", "table4", *sorted(GRID_TABLES), "table6"]),
                       category="Figures", caption="../report/grid.rst"),
    params:
        protocol=as_json(config),
    conda:
        "../../envs/entropic-bound.yaml"
    log:
        "logs/render_report.log",
    shell:
        "entropic-bound render-report --params {params.protocol:q} --tables {input.tables}"
        " --claims {input.claims} --templates report/templates --markdown {output.markdown}"
        " --html {output.html} --paper-config {input.paper_config} > {log} 2>&1"
