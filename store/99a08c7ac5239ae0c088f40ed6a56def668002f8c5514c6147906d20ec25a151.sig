alias entropic-bound-2026-12-07-session gG3igoLfy4asQo9LwTEGKGI6bX/IbZK3LUZf/QnDRybjt7LR7yfK+1UXDAz/M5OHri2cOxGkx2ERioKNQ3lLBw==
