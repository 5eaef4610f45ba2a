entry entropic-bound-2026-12-07-session f2hV4itMUXVnAWDI/zZODR+Y0pHEdNfgN8Is+zWsvL51nh+yhxBE9SdwyVjWC4BeS7F5hODke4C48F5Olwl2BA==
