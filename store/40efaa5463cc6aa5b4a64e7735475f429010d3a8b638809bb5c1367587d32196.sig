entry entropic-bound-paper-2026-12 vfePA3MKduHh7SgYZrcUQ789iRic6pxZtjddYYKxojk1qGB+EGE/OOsHioGP4kauQB+qGg+hwLuGCeSBf/FSBQ==
