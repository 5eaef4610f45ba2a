alias entropic-bound-paper-2026-12 LkdnTkM9LrkwZj89+EEC49W/sw7xZ2EMTJxAX+GKOcWiWstzwWH8F5//P7CoLMCuQf1a3OckhNibLTcghzF8AQ==
