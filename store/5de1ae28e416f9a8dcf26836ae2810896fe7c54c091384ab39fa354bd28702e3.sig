alias entropic-bound-paper-2026-12 Zo+OV/nTmXAoIai9PyLjMoBPSDFGcBnEauu+UCeIrHmdE2iD28iG9uZTe6pnZiMl2G3HE/aM0MICCc4LZTnQAA==
