alias entropic-bound-2026-12-07-session /p9efn8As9G4ImYyGhX2qm0zrsWBaxzi1DYk8nWl40efWAwUlCf7+yaKMDxJU88nuktU/fccQNRgaRhZ/6lIBg==
