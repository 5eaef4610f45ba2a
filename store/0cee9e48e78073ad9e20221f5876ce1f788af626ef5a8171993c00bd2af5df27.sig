alias entropic-bound-2026-12-07-session x/dV+XpHfpum+/aTNTFDPzfUyns4h1RDaPBLOpWOEvif5qkdUVgIgLbq0hr0uSMRyQ8BPN7aFe+3rHjddqTgBQ==
