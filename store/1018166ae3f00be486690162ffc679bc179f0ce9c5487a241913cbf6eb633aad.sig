alias entropic-bound-migration-2026-12-e6 HeEhmOQi+uEVgIHKdhj9bhWDGa/aIfjFoO49+6U3B/jBQHKE8zBzUx/JajB2Qm1MLZkz1p/1lqq2cisyzUCRDA==
