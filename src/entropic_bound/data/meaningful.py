"""The settings that pass the config schema but make an experiment meaningless (the schema
cannot say them): r* beyond the teacher's operator, a row-normalised teacher over one token,
fewer observations than a full-rank student has parameters, a width its heads do not divide."""

from __future__ import annotations

from entropic_bound.data.mixing import mixing


class MeaninglessSetting(ValueError):
    """A valid config value that makes an experiment meaningless (the schema cannot say it)."""


def check_meaningful(cfg: dict, grids: dict[str, dict], fixed: list[str]) -> None:
    """Raise :class:`MeaninglessSetting`, naming the key and what it needs, where a setting
    that passes the schema makes an experiment meaningless:

    * r* above what the teacher's operator allows (K* is d x d; A* is T x T);
    * a row-normalised teacher (softmax) with T = 1: its one mixing weight is 1, so K* cannot
      affect Y;
    * fewer observations than the full-rank student has parameters: a grid student holds K and
      V (2 d^2 numbers) and a dataset gives n T d of them, so n T >= 2 d; a fixed-operator
      student holds A and V, so n T d >= T^2 + d^2;
    * an E6 model width that its heads do not divide.

    ``grids``: config key -> the section of each grid of datasets (E3, E5, E4's settings);
    ``fixed``: the fixed-operator experiments' keys.
    """
    for key, c in grids.items():
        for r_star in c["r_stars"]:
            if r_star > c["d"]:
                raise MeaninglessSetting(f"config {key}.r_stars: r*={r_star} exceeds {key}.d="
                                         f"{c['d']} (K* is d x d)")
        normalised = [t for t in c["teachers"] if mixing(t).row_normalised]
        if c["T"] < 2 and normalised:
            raise MeaninglessSetting(
                f"config {key}.T=1 with the {normalised[0]} teacher: its rows sum to 1 over one "
                f"token, so the kernel K* cannot affect the output; use T >= 2")
        if c["n"] * c["T"] < 2 * c["d"]:
            raise MeaninglessSetting(
                f"config {key}.n={c['n']}: a dataset gives n T d = {c['n'] * c['T'] * c['d']} "
                f"numbers for a full-rank student of 2 d^2 = {2 * c['d'] ** 2} (K and V), so "
                f"nothing is determined; use n >= {-(-2 * c['d'] // c['T'])} (n T >= 2 d)")
    for key in fixed:
        c = cfg[key]
        if not 1 <= c["r_star"] <= c["T"]:
            raise MeaninglessSetting(f"config {key}.r_star={c['r_star']} must lie in "
                                     f"[1, {key}.T={c['T']}] (A* is T x T)")
        need = c["T"] ** 2 + c["d"] ** 2
        if c["n"] * c["T"] * c["d"] < need:
            raise MeaninglessSetting(
                f"config {key}.n={c['n']}: a dataset gives n T d = {c['n'] * c['T'] * c['d']} "
                f"numbers for a full-rank student of T^2 + d^2 = {need} (A and V); use n >= "
                f"{-(-need // (c['T'] * c['d']))}")
    heads = cfg["e6"]["model"]["heads"]
    for width in cfg["e6"]["d_models"]:
        if width % heads:
            raise MeaninglessSetting(f"config e6.d_models: {width} is not a multiple of "
                                     f"e6.model.heads={heads} (each head has d_model / heads "
                                     f"dimensions)")
