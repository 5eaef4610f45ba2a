entry entropic-bound-paper-2026-12 Qo+dpu9xLdlQ6t3QU8SzbTVqmZZcYzc50B3eEFq/H7HD+2Ryi8YpN6WBSvbe9RGBaObLmEIy2/19JjWYSegUAA==
