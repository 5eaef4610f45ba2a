entry entropic-bound-paper-2026-12 HkUbvINI115Nj8679yKEDRUgmLFc+2SnvIR73Kobk+5+tYx53BZCXBKWydXiY0QbLxsx+YVPPk1o3No2DweWCw==
