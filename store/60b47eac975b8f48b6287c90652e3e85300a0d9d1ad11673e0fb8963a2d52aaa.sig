alias entropic-bound-paper-2026-12 XwoSchKDQI3HF4xFD+MvWbC9cWWdl+ZGT+f41HgwzLaIzmDphEXr2f/ITfCACwQEGJmmfTxaKQPKCTl6ai9ZBg==
