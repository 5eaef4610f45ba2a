# Claims and the rendered report.

TABLES = [
    rules.aggregate_table3.output.summary,
    rules.aggregate_table3.output.sweep,
]


rule evaluate_claims:
    input:
        tables=TABLES,
        code=lib("claims", "atomic"),
    output:
        report("results/tables/claims.parquet", category="Claims",
               caption="../report/claims.rst"),
    log:
        "logs/evaluate_claims.log",
    shell:
        "entropic-bound claims --tables {input.tables} --out {output} > {log} 2>&1"


rule render_report:
    input:
        tables=TABLES,
        claims=rules.evaluate_claims.output[0],
        templates=["report/templates/report.md.j2", "report/templates/report.html.j2"],
        code=lib("report", "claims", "atomic"),
    output:
        markdown="report/out/report.md",
        html=report("report/out/report.html", category="Report",
                    caption="../report/report.rst"),
        figure=report("report/out/table3_excess.png", category="Table 3",
                      caption="../report/table3.rst"),
    params:
        protocol=as_json(config),
    log:
        "logs/render_report.log",
    shell:
        "entropic-bound render-report --params {params.protocol:q} --tables {input.tables}"
        " --claims {input.claims} --templates report/templates --markdown {output.markdown}"
        " --html {output.html} > {log} 2>&1"
