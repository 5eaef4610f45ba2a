entry entropic-bound-paper-2026-12 b3FuMllutc/hQw59pnlQ0leH6AdDW+DJDsV1V/c6vKtMg4bYKerByLCi6W5kiwbqAPrCfVp9MJ/apX55IsNaAA==
