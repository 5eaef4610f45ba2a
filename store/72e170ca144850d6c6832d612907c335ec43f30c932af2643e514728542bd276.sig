entry entropic-bound-paper-2026-12 o9iovW02oEMJV3R2TUF0ObwAkYYu5FxU/+4+FjTV9rCo95pbuj03J8LHco3+ehm7XLAJQ9WO6PmgluKbNZ80Dw==
