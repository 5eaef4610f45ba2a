entry entropic-bound-paper-2026-12 AydajVte43GCLV+OSYE3NiOaXkTUb9LBY2l9RkOONqsjaZ/Qb2u7R/UM44g3dzQaXrH93BivIAF/rSJcm4HMBg==
