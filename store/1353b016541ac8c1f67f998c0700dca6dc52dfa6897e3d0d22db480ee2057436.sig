entry entropic-bound-paper-2026-12 CT8fY1w+41djlL7Bo1yWm8hy996GWBYJ2JW/sjSOKZb7Sw32hdJckutba2B4e0S+ULT+b5sRXhcigkNp3YLtCQ==
