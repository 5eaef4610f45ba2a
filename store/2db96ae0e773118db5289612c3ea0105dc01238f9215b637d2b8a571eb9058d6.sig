entry entropic-bound-2026-12-07-session SXR3qzRcmO+u+LhebFOPQFWiA9it8qojf9JkcaUMij/Gpw/n9+BxA3d8B3HgC/upTH+FzvmkzGotAUPglfR4BA==
