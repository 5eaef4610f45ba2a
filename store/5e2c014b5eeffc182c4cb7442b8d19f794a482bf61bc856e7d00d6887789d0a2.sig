alias entropic-bound-paper-2026-12 7dH0yLD/zd+O3d7cztfZCms6vYXb/ks8aGUpASWZ3es1RvtV7+reJiGYzaL21xDt3RQj1m17cxFylBnStMmbBA==
