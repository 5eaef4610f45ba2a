entry entropic-bound-paper-2026-12 /jAgoFXE/AaMXVe6QMne/7U4GNQF6hfMhn/a4NLg1G+0wwiv/0/L3kyc8cuZwT7wmvOv1m6yjpuxdgF2rNIuCg==
