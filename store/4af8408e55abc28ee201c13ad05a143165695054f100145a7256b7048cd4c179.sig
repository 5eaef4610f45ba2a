alias entropic-bound-2026-12-07-session qbX65M0bJlovo5P0OrXupd/TEXSveBIG0BC1PMjfkM/eDz0d+hGIcUQpKYp2SbbssayQ4b/M+ZsMwS6QLprYAQ==
