alias entropic-bound-migration-2026-12-rules IYSfogrkCvpK7A1Cu/R0b6RvR+cRUehEPKbLZVlsy8GbgAKjBSUy/AsWA/0EmxhdoxTItjhwqNoRT8UiOiPWDw==
