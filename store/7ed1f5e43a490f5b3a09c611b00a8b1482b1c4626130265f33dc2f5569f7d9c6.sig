alias entropic-bound-migration-2026-12-rules /Ysd/BxUfTcXxxKLl4loe0oGdIpTHWE/2hGaiSmOeneozLXWlrlh3otS2Afvjv1txxY1SHQW/Aelx6b5QmBCBg==
