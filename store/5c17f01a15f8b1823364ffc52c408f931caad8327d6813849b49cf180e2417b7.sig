alias entropic-bound-paper-2026-12 JQ+NIwp0czacGDrK5Hs4+irdxFY2C/BM4o3P28NvMTw5dQnRgwt5vA3+CGL0/8PFgf54KIvGtJaZCVR86q+2AA==
