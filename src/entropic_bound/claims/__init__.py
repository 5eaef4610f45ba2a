"""The paper's claims: its published numbers (``published``, their only home) and one rule
per claim, by experiment, that judges our tables against them (``registry`` collects them)."""
