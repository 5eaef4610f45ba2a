alias entropic-bound-2026-12-07-session pBA8k2r494UGyInrSjOsIG1k+skNTw5I1YCQjrMmj8AJNNweq4MGPL3ZAnyw5XPm9brfd0kqy4N4/LF/E/ARDg==
