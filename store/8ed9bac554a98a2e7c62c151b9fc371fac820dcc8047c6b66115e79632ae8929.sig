entry entropic-bound-paper-2026-12 oKTFW8IOc9qA04HzfYQG9q0KfYXW1AmGD/eGabB8+aFtw7h5H0KEit7JyxhFCdrc+/19V7eQR/Mi4XG4mu3yDw==
