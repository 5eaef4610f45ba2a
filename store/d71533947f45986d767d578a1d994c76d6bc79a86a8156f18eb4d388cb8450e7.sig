entry entropic-bound-paper-2026-12 ZeYnQfoLZlmFHGVwa0efCyU/g4NbEOrLx+cXAe41yrpGx/rpQ0PCHh4/t+EOQdAiW9V/PWf97kcKdxjYpulPAQ==
