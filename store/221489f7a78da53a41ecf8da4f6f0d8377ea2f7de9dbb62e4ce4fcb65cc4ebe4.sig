entry entropic-bound-2026-12-07-session ///ZOjaD9Bet16961eUvNNIH44bUl2iOff4ez/oUfHwTL5nRI06Ng1Og2GeYQyAe+yJtQM9sUdmm9eZlEnnnCg==
