alias entropic-bound-paper-2026-12 wXI5db+Ry+UAQLDQm2JYrR/WxX+LDK/0wfQyja1Oe/FczeH0qWV1Hj6NI+XTPLscuO/JGNCQXnyCKwYWzDttBw==
