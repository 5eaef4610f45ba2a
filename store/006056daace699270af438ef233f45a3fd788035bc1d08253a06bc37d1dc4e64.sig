alias entropic-bound-2026-12-07-session 0AArdtzHsCCQZpY89HV//jBRkn1Lg5ckywNTFmI2Hikb50vUN93yAb/BlvP+zk/c0gmLwHjxfdcGzbvw2X6RAw==
