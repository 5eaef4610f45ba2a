entry entropic-bound-paper-2026-12 dnSSZOmDvM0dtIO+I6xSqEz95do++vlqyVri/U47eMxs1oacMO84Pov4th/cO1/fTd+Xme43u+y1lbHkQ/cJDA==
