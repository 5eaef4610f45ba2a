alias entropic-bound-migration-2026-12-e6 1QOKApofliVVmD4npQm0wD0wQiizU5RcLLcvUPB9mrtm1tWM/VBIBwcmxj/z8E0+J34PpTrTc3to/tWkj6ABAg==
