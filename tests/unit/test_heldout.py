"""Held-out hygiene (entropic_bound.data.heldout): a split whose held-out text repeats its
training text is stopped in one line; a split without repeats passes."""

from __future__ import annotations

import random

import pytest

from entropic_bound.data.heldout import WINDOWS, check_heldout, heldout_hygiene

SPLIT = {"max_chars": 40_000, "val_fraction": 0.1, "context": 64}


def fresh_text(n: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice("abcdefghij \n") for _ in range(n))


def test_a_fresh_text_has_no_overlap_and_passes():
    hygiene = heldout_hygiene(fresh_text(40_000), **SPLIT)
    assert hygiene.in_train == 0 and hygiene.windows == WINDOWS
    assert hygiene.window_chars == 65
    check_heldout("fresh", hygiene, 0.1)


def test_a_planted_duplicated_split_is_stopped_naming_corpus_overlap_and_threshold():
    """The last tenth is a copy of text from the training split (a corpus that holds each of
    its documents twice, say): every held-out window is found in training."""
    train = fresh_text(36_000, seed=1)
    hygiene = heldout_hygiene(train + train[5_000:9_000], **SPLIT)
    assert hygiene.in_train == WINDOWS and hygiene.overlap == 1.0
    with pytest.raises(ValueError) as err:
        check_heldout("planted", hygiene, 0.1)
    line = str(err.value)
    assert "\n" not in line
    assert "corpus 'planted': 64 of 64" in line and "1.00 > e6.max_heldout_overlap = 0.1" in line


def test_half_duplicated_is_measured_as_half_and_the_threshold_is_strict():
    train = fresh_text(36_000, seed=2)
    held = train[1_000:3_000] + fresh_text(2_000, seed=3)  # the held-out half reads its end
    hygiene = heldout_hygiene(train + held, **SPLIT)
    assert hygiene.in_train == 0  # the duplicated part lies in the selection half
    held = fresh_text(2_000, seed=3) + train[1_000:3_000]
    hygiene = heldout_hygiene(train + held, **SPLIT)
    assert hygiene.in_train == WINDOWS
    check_heldout("at", heldout_hygiene(fresh_text(40_000), **SPLIT), 0.0)  # 0 > 0 is false


def test_repeated_lines_are_the_share_of_non_blank_lines_seen_before():
    text = "a\nb\n\na\nc\na\n" + "\n".join(f"line {i}" for i in range(995))
    hygiene = heldout_hygiene(text, max_chars=len(text), val_fraction=0.1, context=8)
    assert hygiene.repeated_lines == pytest.approx(2 / 1000)  # a, b, a, c, a: two repeats
