alias entropic-bound-paper-2026-12 gMlkS6QyyNlpV/LK2yZaevSiGGmumm/8sTiWLkCQCyR82qbh4FZol7vo5K/oua9SRD+vd9880nlfsWzl6GxPAg==
