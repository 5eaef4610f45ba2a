alias entropic-bound-2026-12-07-session qqwVkuYnakx42MQ7PswTVtOx57XHmGbmJ+Akb+3s0pojL2oEgeswWz37Xhid+AxeKxqWyJbsezcqwSL8/wLuCw==
