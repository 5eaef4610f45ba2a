entry entropic-bound-2026-12-07-session Gtsqo0UQxWPpVTCdYCPtEx5otwUXYFREDet3Gn+po4Sn3LXO6Uiphxejm+/ASWYcsaFThNVV/Dc5AfzNezXuAg==
