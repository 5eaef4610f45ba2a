entry entropic-bound-paper-2026-12 T4q/k1/Chm9JosYedJpQM9Z29ajivxwJnY+lDgVzC83FGPJSe5Zy0TPBHlW23faJ/J/CRBSd+WDw0QTKm6zOBg==
