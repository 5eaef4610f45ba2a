realisation entropic-bound-paper-2026-12 SGfBuhNZE8YNwA/JDAU9QjmOMcU/yv8luNR8dnCXJu3U0Hze/vhCLO4hZR9qaLz+5TaFPrdzJRDLJN/9gGuWCg==
