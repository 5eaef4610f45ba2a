alias entropic-bound-paper-2026-12 5JmNsVPrWGY8/lJMqsz+kcgD9KO1l/CmyVNljTEt53kYfdpuowSL2cW/u9rJ0JZp77Sc2PkQg3yZqFNmbL4jDA==
