alias entropic-bound-2026-12-07-session JWf5k5jBxHts5jgvQh+gcqxUPaoXCIQPNUjiG8pCNjFf70/U/DoDsXz+Cb7tDouAXxoT2vse7O8eUKlcZJRxDw==
