entry entropic-bound-paper-2026-12 LvfUH8kcRDrcV8hyH/OaljGYn2bhXrU4yB0kkajfhYQ0sm1y2gl1AdqERRgv0pz4/7aE6+DzIW+KdJIclRbUDw==
