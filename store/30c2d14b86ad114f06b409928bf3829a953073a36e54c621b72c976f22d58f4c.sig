entry entropic-bound-paper-2026-12 Yc8cmgOsITBOvHnQrZP4KceEb6NQKYGHdtXySNoR4DXfEpho3zP+/WHhF0x4Z/5Fc+NYBlS10D1Ndl+C1IYtAg==
