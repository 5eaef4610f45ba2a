alias entropic-bound-migration-2026-12-e6 ZnHRKD52U+JLnaffQRM6qEbc/bKoVD0FksbxCH+wGIW3M28BtwWSJMj6m8uhDDJc7oGdUk0nAPKcPl4Y63S+BA==
