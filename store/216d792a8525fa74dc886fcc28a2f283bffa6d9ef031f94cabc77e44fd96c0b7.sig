alias entropic-bound-paper-2026-12 +Nu6q8+S437acxZzwOAyoMd6caCOhD5QdzOSjkmq+h7opX+20GcyLXBkz6UV4CIZy/7lH4aZV+3Kz4P9qJBFAw==
