alias entropic-bound-2026-12-07-session g3Zkz7eyauEGTQqjQWbgbK/QrEn0u2EOIyAE26m/Ow7m55g3vpJPbf9A+W0+yc0bi6rVQR3PTFGyFjGMBAhbDQ==
