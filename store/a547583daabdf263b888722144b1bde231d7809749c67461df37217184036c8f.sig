alias entropic-bound-paper-2026-12 Na/FxqF/mLNR+9eGfbfRRAasMMCe1U9BQgtAcZ3atDMPMIKlYqJ1JT2f6EF8YDDMMmDrN2z/9/OsM38ul/1iCA==
