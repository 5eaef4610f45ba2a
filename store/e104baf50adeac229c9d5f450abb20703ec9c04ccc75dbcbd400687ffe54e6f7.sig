alias entropic-bound-paper-2026-12 k6n54Url+kTEZGl+n+sKqhVCEALblPupN1JbeLtMa5pq1fjiQYsMKdSRqihGL3gDCd9DSa+KL9jZBlatZ6eaAA==
