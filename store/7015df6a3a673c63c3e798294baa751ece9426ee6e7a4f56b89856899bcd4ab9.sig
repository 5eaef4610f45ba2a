alias entropic-bound-migration-2026-12-e6 RTyfaAJGg3FWaRGE7QkvAP3szw9AM1nVpoVc+297cRvb2QSouGjfLXFAJTKV/uA5X9o4m/Y3UzmUMNu0k/asDg==
