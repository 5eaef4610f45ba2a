alias entropic-bound-paper-2026-12 liDdSbIZyYN/kF5y+AzxSthAU2Afov3nxBi1fQSqG3w8GmWbiw8srYon8PdOr45T3l7B9wuYEW9Zj+/fPGg1Bg==
