entry entropic-bound-paper-2026-12 wqSOseQtukGHZ/gGZ3xeAzGaK3z+DHyDiJlggXHyseHd9/V3bvRX29zVLb9JOwc26FxCZcpwRTl1tyIZFCN+AA==
