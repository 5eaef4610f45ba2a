alias entropic-bound-migration-2026-12-rules +8e7ChzNNAA90tigGkBVpzNVLmdfy8I2+txRrl+RUNqViX7+/2bIUaA6lvB1P7Dsb9U1znsNRIswZosoBy3PBw==
