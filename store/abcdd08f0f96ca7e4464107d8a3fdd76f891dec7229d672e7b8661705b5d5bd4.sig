alias entropic-bound-paper-2026-12 WHY35BF0gu/HDpxmEioD0FtL8JPhMXxuUb+5AzYU1k+IF+U8VFo8ZL1bv/Pw4SfMCcOQiHa0I2HSSOCBHdiHDg==
