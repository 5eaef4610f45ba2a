entry entropic-bound-paper-2026-12 ZHW3WXG1ryGBDFSr5C+RmD6wCh/EvvAw9jEhPtWmFEExFZhsrh+BqmiKfNVw3F4B6o/G6QerxDNcdvM0K+jOCg==
