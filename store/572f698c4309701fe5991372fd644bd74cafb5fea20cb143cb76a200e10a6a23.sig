alias entropic-bound-migration-2026-12-e6 edeUdzJ++Kjf8cYsXiU7J5bjjpiRnpewNqtfYOnB3uaIgSmjm0WqqYx+x1/Jkon/RkGMi/+DqqnjDa4NyfFeAA==
