alias entropic-bound-2026-12-07-session ju/hYKSo/k/mH0kMU+HswcWr119cto8625p57UgqusDua77ArfrHGK6qRJC2y9bWv3/MO5hdAhX2qjxtE3esCg==
