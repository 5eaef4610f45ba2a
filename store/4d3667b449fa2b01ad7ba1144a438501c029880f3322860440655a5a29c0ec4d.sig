entry entropic-bound-paper-2026-12 NvfYgs8B+mtVWCkEv8VetzKWu7+DEIObfChwIPzeZnzGAywz6NUzqtE/feRWyg7Y+mPRmC80yoGBXZSWNaoJAg==
