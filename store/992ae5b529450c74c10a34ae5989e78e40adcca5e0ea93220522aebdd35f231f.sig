alias entropic-bound-2026-12-07-session EQx7lw64LOmp+G+NegUBbho1GKdRKkOd/HbDEKRrsU0KVqLlgR16v9uC/bnEUY1mN4C4C4gIJJwwLd2hJBSUCw==
