entry entropic-bound-paper-2026-12 7z7TaSzRml+p/M3N6ZotUWVa2YXVA+tlxoIrV+binHVjeqLFlQV9/io4PpByKl+GbDyxfzbvL7Hdgt0Dja0fCQ==
