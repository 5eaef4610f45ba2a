alias entropic-bound-paper-2026-12 +yBMLZhx/6nc8uBVI0wXiI7VwJNhUPmztBcVV4weU3shd4nWj56ALFzxlQq+CFH3Q2bKuU9Qb+tMn1DRfRreBg==
