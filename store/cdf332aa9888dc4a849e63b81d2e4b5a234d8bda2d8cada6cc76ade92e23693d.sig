alias entropic-bound-paper-2026-12 uEFja5cTG+onhkYhmxvVkQrOU5uxABgy14fdVsmYTL6+3w+OGTp5V4sS0CmnvS8MBYHfTretC1xh0+ra+HVhCw==
