alias entropic-bound-2026-12-07-session t6aFscaTHGiiuUSK1s4CPALmvBNe3U7i3h32AtGmpOMvTpTVI1rgr2XDTc1OS1TM/J6Ms/QJ0Uj4/5u5UlR/AQ==
