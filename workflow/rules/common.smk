import json

from snakemake.utils import validate

# Fail before any job runs, naming the offending key; fills schema defaults.
validate(config, schema="../schemas/config.schema.yaml")

for _rs in config["e3"]["r_stars"]:
    if _rs > config["e3"]["d"]:
        raise ValueError(f"config e3.r_stars: r*={_rs} exceeds e3.d={config['e3']['d']}")


wildcard_constraints:
    teacher="linear_qk|softmax_qk",
    r_star=r"\d+",
    seed=r"\d+",


def lib(*modules):
    """Library sources a rule runs, declared as inputs: Snakemake does not track imported
    modules, so listing them makes an edit rerun exactly the rules that execute it."""
    return [f"src/entropic_bound/{m}.py" for m in modules]


def as_json(obj):
    """A params value compared by repr (stable key order) and passed to the CLI as JSON."""
    return json.dumps(obj, sort_keys=True)


def e3_datasets(pattern):
    e3 = config["e3"]
    return expand(pattern, teacher=e3["teachers"], r_star=sorted(e3["r_stars"]),
                  seed=sorted(e3["seeds"]))
