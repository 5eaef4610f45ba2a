alias entropic-bound-migration-2026-12-rules W+FGcxZ+EgeQwT/CX7MJmmA9SS9o+ZnISbz3EYv70AY+XJSigoAR+OLrFvwaD3KVmIQ0Ay6/MhudE1ZKmt0sAQ==
