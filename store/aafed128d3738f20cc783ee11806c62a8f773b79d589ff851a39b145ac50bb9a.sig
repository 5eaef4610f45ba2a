alias entropic-bound-migration-2026-12-rules XCq+2xr87K7+jYHiNTh3/0IXkSe/HgYSWCJM/f1n/WM1IzOQBpE9HwMpNFH/BMC4Qwl4cJ5DcRB8+zqtyndXDg==
