alias entropic-bound-2026-12-07-session u+Ui+b5gO1hHeEx3/tNis0CgAYNw46MlLzJWYuZOENiudateTMu4YgxzSCW+EjXkSqGrmwlU2LCUXNB1FHNSCA==
