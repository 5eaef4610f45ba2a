alias entropic-bound-paper-2026-12 UG/+VKOTxr/Rh62Softhn8/b/JD5K/boWRWzA6AtzQpExY8LoRg+K91moLfqQhqUtCIg2lTLLnbdRP+CwWiqBg==
