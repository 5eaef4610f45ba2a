entry entropic-bound-paper-2026-12 f8ljkEo/XXGUMWWrq4Syp75IckZTourlmxKNKYZU/qhbqu+mZflaTUsPeIHNPsAIBs4COnkd+bt0xr/f1ZVaAA==
