alias entropic-bound-2026-12-07-session +srOEJo1pAOcj5hVYg7VbqAFE/0Yo7yG0jHFsFcmKlg/D7kaydOiW8RvLGh/pk15asSAoty9CrkbO9FrIVAJAg==
