alias entropic-bound-migration-2026-12-rules wSJUH5+RsCLS/neqbpYjSdt41FKHkN+cAwVKKSMYh7EQLo1A4xti/5/TRQUcE5vx7Zz3xKtdN6fuMekuIcMsCQ==
