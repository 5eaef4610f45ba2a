alias entropic-bound-migration-2026-12-rules k5ZPaPN7oL9aLnc+3w1UolPUUGKDXczPyICgf4/V+Qcp/fK2OcO6MHPSV+GyrPOjPOC1pLN3vw/4Or3/u5mJBA==
