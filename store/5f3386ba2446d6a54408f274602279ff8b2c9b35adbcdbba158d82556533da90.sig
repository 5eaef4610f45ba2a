alias entropic-bound-paper-2026-12 2eGwSb9irtKpJa/oNZXsVwgQFLzOywQ/iDQFH/+hbtoc375W4wSjh8FHyGBB2bKIPFn/IlyzNib/nkL+wsUsAQ==
