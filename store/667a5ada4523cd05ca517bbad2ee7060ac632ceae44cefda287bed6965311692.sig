alias entropic-bound-2026-12-07-session CN5QSm9mZnl1W3MAmNbGuFzxfbYxExRJqheJZfD/n8kBJb/hWK0nSFinSplR4C9MDdoMpNS+JyPOg0qX+1GFDQ==
