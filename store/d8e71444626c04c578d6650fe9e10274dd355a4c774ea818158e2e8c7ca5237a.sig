alias entropic-bound-paper-2026-12 SmM9PhQ6IolL5onLoTO5U5Vr/R/EHsz2otg2t/UWs3GuDhjcqzDdchd7zCeVzprDra/EvltFnqVFyG8rDmM+Bg==
