alias entropic-bound-paper-2026-12 XnSEUgBaxLiED71B0jj1RLDz+3Z19nCJQ/JegJd39+gjPTmcuuUPkXA1bVEqUb012oFkUqoAObq3ivVXLE/XAQ==
