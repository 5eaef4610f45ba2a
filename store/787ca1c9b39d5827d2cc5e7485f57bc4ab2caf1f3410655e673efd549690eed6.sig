alias entropic-bound-2026-12-07-session h0B9PXSqIF6I9Q9mh4j0pLdJKW209fYMH+LP4/0JVs4Ni2u2J2V/+el/i9xBH6gFLkDafwj0/7bWS4+F3QYoDw==
