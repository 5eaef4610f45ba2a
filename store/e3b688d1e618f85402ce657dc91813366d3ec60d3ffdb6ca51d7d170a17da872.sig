alias entropic-bound-paper-2026-12 RdI/xcmnnadV/F0xUOBjWgErZt/7NFO4O4S61V3jDWz8Frn0OO8VubhJcu7lItbxL1znvBEaw/8iDCYd2wDYCg==
