entry entropic-bound-2026-12-07-session dD27LgnQfBMD8gs45xeiIFOyqDmm3POFoB+XbhBHWG2luRR/USv+Rc38COv8g+sySQGez5mWBudvysf/yK59AQ==
